// Whether one simple command only reads, and which files it reads: the program must be on the
// short list (./programs, `find` in ./find-reads, the reading subcommands of git in
// ./git-reads, and `echo`, `printf`, `test`/`[` here), every option on that program's safe
// list, every word literal (the caller passes only literal words). A glob that may expand to an
// option is asked for every program, the builtins too: with a file named `-v` in the folder,
// `printf *` and `test -? …` would run `-v`, which evaluates a subscript. The files are what
// the permission layer judges against the session's roots; none means the workspace itself.
// Pure.
import { findReads } from './find-reads'
import { gitReads } from './git-reads'
import { readArgs } from './options'
import { PROGRAMS } from './programs'
import type { ProgramRule } from './programs'
import { pathOf } from './words'
import type { LiteralWord } from './words'

/** The files `name` with `words` reads, or `undefined` when the command is not known to only read. */
export function readOnlyFiles(name: string, words: readonly LiteralWord[]): string[] | undefined {
  if (name === 'echo') return mayBeOption(words[0]) ? undefined : []
  if (name === 'printf') return printfOnlyPrints(words) ? [] : undefined
  if (name === 'test' || name === '[') return testOnlyReads(name, words) ? [] : undefined
  if (name === 'find') return findReads(words)
  if (name === 'git') return gitReads(words)?.files
  const rule = Object.hasOwn(PROGRAMS, name) ? PROGRAMS[name] : undefined
  return rule === undefined ? undefined : ruledReads(rule, words)
}

/** The program opens its operands (a glob among them reads what it matches). */
export function readsFiles(name: string): boolean {
  if (name === 'find' || name === 'git') return true
  return Object.hasOwn(PROGRAMS, name) && PROGRAMS[name]?.operands !== 'text'
}

function ruledReads(rule: ProgramRule, words: readonly LiteralWord[]): string[] | undefined {
  const read = readArgs(rule, words)
  if (read === undefined) return undefined
  const { operands } = read
  if (rule.maxOperands !== undefined) {
    // A glob may become more operands than it looks, the last of them a file written.
    if (operands.length > rule.maxOperands || operands.some((word) => word.glob >= 0)) {
      return undefined
    }
  }
  if (rule.operands === 'text') return read.paths
  const patternGiven = rule.patternOptions?.some((option) => read.seen.has(option)) === true
  const pattern = rule.operands === 'pattern' && !patternGiven ? operands[0] : undefined
  const files = pattern === undefined ? operands : operands.slice(1)
  // A pattern left unquoted is a glob too, and its matches are files read.
  const globbed = pattern !== undefined && pattern.glob >= 0 ? [pattern] : []
  return [...read.paths, ...[...globbed, ...files].map(pathOf).filter((path) => path !== '-')]
}

/** A glob that may become an option: at the start of a word, or in a word that is one. */
function mayBeOption(word: LiteralWord | undefined): boolean {
  return word !== undefined && (word.glob === 0 || (word.glob > 0 && word.text.startsWith('-')))
}

/**
 * `printf -v NAME` assigns (and evaluates a subscript in NAME); any other printf prints. Only
 * its first word may be an option, so only a glob there may become `-v`.
 */
function printfOnlyPrints(words: readonly LiteralWord[]): boolean {
  const first = words[0]
  if (first === undefined || first.text === '--') return true
  return !first.text.startsWith('-') && !mayBeOption(first)
}

/** Operators of `test` and `[[ ]]` that evaluate a variable name or an arithmetic expression. */
export const EVALUATING_TEST_OPERATORS = new Set(['-v', '-R'])
export const ARITHMETIC_TEST_OPERATORS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
const INTEGER = /^[+-]?\d+$/

/**
 * `test` and `[` only compare, unless asked to look a variable up (`-v`, `-R`, which evaluate
 * an array subscript) or to compare numbers that are not plain integers.
 */
function testOnlyReads(name: string, words: readonly LiteralWord[]): boolean {
  // Any word may be an operator to `test`, so a glob anywhere may become `-v`.
  if (words.some((word) => word.glob >= 0)) return false
  const args = words.map((word) => word.text)
  if (name === '[' && args.pop() !== ']') return false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (EVALUATING_TEST_OPERATORS.has(arg)) return false
    if (ARITHMETIC_TEST_OPERATORS.has(arg)) {
      if (!INTEGER.test(args[i - 1] ?? '') || !INTEGER.test(args[i + 1] ?? '')) return false
    }
  }
  return true
}

/** True when `text` is a plain integer, as an arithmetic operand of `[[ ]]` must be. */
export function isPlainInteger(text: string): boolean {
  return INTEGER.test(text)
}
