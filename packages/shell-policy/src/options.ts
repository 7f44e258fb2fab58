// Reading a program's arguments as the program does, against the options known to be safe for
// it: short options alone or clustered (`-uo FILE` is `-u -o FILE`), values attached or in the
// next word, long options with `=` or the next word, `--` ending the options, and options after
// operands (GNU programs permute). A long option is taken exactly; for a program that accepts
// unambiguous abbreviations (getopt_long), an abbreviation is resolved against every long
// option the program knows, so `sort --out` is `--output`, as sort reads it. Any option that is
// not on the safe list, or that cannot be resolved, makes the call unsafe. Pure.
import type { LiteralWord } from './words'

export interface OptionTable {
  /** Short options that take no value, one character each. */
  flags?: string
  /** Short options that take a value, attached (`-n5`) or in the next word (`-n 5`). */
  valued?: string
  /** Long options (without `--`) that take no value. */
  long?: readonly string[]
  /** Long options that take a value (`--key=1` or `--key 1`). */
  longValued?: readonly string[]
  /** Long options whose value is optional, given only with `=` (`--color`, `--color=never`). */
  longOptional?: readonly string[]
  /**
   * Every long option the program knows, safe or not, when it accepts abbreviations: an
   * abbreviation is read as the one option it begins, or refused when it begins several.
   */
  known?: readonly string[]
  /** Options (`-f`, `--file`) whose value is a file the program reads. */
  pathValued?: readonly string[]
  /** `-5` is a count (`head -5`). */
  numeric?: boolean
}

export interface ReadArgs {
  /** The words that are not options or their values, in order. */
  operands: LiteralWord[]
  /** The options seen, by their full name (`-n`, `--lines`). */
  seen: Set<string>
  /** Values of path options. */
  paths: string[]
}

/** The arguments read against `table`, or `undefined` when any of them is not known safe. */
export function readArgs(table: OptionTable, words: readonly LiteralWord[]): ReadArgs | undefined {
  const read: ReadArgs = { operands: [], seen: new Set(), paths: [] }
  let ended = false
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as LiteralWord
    const text = word.text
    if (ended || text === '-' || !text.startsWith('-')) {
      // A glob at the start of a word may become any file name, an option among them.
      if (!ended && word.glob === 0) return undefined
      read.operands.push(word)
      continue
    }
    // A glob past `--name=` only ever matches more of the same option; anywhere else in an
    // option it may become other options.
    const equals = text.startsWith('--') ? text.indexOf('=') : -1
    if (word.glob >= 0 && (equals < 0 || word.glob < equals)) return undefined
    if (text === '--') {
      ended = true
      continue
    }
    const next = () => words[++i]?.text
    const ok = text.startsWith('--')
      ? readLong(table, text.slice(2), next, read)
      : readShort(table, text, next, read)
    if (!ok) return undefined
  }
  return read
}

function readLong(
  table: OptionTable,
  written: string,
  next: () => string | undefined,
  read: ReadArgs,
): boolean {
  const equals = written.indexOf('=')
  const given = equals < 0 ? written : written.slice(0, equals)
  const name = resolveLong(table, given)
  if (name === undefined) return false
  const flag = table.long?.includes(name) === true
  const optional = table.longOptional?.includes(name) === true
  const valued = table.longValued?.includes(name) === true
  if (equals < 0 && (flag || optional)) {
    read.seen.add(`--${name}`)
    return true
  }
  if (equals >= 0 && optional) {
    read.seen.add(`--${name}`)
    return true
  }
  if (!valued) return false
  const value = equals >= 0 ? written.slice(equals + 1) : next()
  if (value === undefined) return false
  read.seen.add(`--${name}`)
  if (table.pathValued?.includes(`--${name}`) === true) read.paths.push(value)
  return true
}

/** The long option `given` names, as the program reads it; `undefined`: unknown or ambiguous. */
function resolveLong(table: OptionTable, given: string): string | undefined {
  const safe = [...(table.long ?? []), ...(table.longValued ?? []), ...(table.longOptional ?? [])]
  const known = table.known ?? []
  if (safe.includes(given) || known.includes(given)) return given
  if (table.known === undefined || given.length === 0) return undefined
  const begun = new Set([...known, ...safe].filter((option) => option.startsWith(given)))
  return begun.size === 1 ? [...begun][0] : undefined
}

function readShort(
  table: OptionTable,
  text: string,
  next: () => string | undefined,
  read: ReadArgs,
): boolean {
  if (table.numeric === true && /^-\d+$/.test(text)) return true
  for (let j = 1; j < text.length; j++) {
    const char = text[j] as string
    if (table.flags?.includes(char) === true) {
      read.seen.add(`-${char}`)
      continue
    }
    if (table.valued?.includes(char) !== true) return false
    const value = j + 1 < text.length ? text.slice(j + 1) : next()
    if (value === undefined) return false
    read.seen.add(`-${char}`)
    if (table.pathValued?.includes(`-${char}`) === true) read.paths.push(value)
    return true
  }
  return true
}

/** A list written as one string of names separated by spaces (tables stay readable). */
export function names(text: string): string[] {
  return text.split(/\s+/).filter((name) => name.length > 0)
}
