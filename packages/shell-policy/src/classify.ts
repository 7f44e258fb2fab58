// The command classifier: a command line parsed by bash's grammar (./parse), split into its
// parts — every simple command, including those inside pipes, lists, subshells and command or
// process substitutions — and each part judged. A part runs unasked only when it is on the
// allow-list (./read-only: a listed program, only its safe options) with every word literal
// (./words: nothing expanded at run time); the files it reads go with it, for the permission
// layer to judge against the session's roots. A redirection that writes a file is a part of
// its own, never read-only; a redirection that reads one adds that file; a here-document
// whose body expands is not literal. Anything the table cannot see through (a loop, a
// function, an assignment, `((…))`, a computed command name) is a part that is not read-only
// and is remembered only as the exact command. A command that does not parse is unknown.
// Pure but for the parser's one-time load.
import type { CommandAllow } from './allow-key'
import { needsNetwork } from './network'
import { withBashTree } from './parse'
import type { BashNode } from './parse'
import { DIFF_PRINTERS, gitReads } from './git-reads'
import { allowOf } from './prefix'
import { readOnlyFiles, readsFiles } from './read-only'
import { isTestLiteral } from './test-command'
import { isLiteralHeredoc, literalWord } from './words'
import type { LiteralWord } from './words'

export interface CommandPart {
  /** The part as written. */
  text: string
  readOnly: boolean
  /** The files it reads, as written (relative to the workspace); none: the workspace. */
  files: string[]
  /** What "always allow" remembers of it; `undefined`: only the exact command. */
  allow?: CommandAllow
  /** It is known to need the network (a package install, a fetch). */
  network?: boolean
  /** A read-only part's program, as named (looked up on PATH before it runs unasked). */
  program?: string
  /** A read-only part's globs, as written, when it reads files: what they match is read. */
  globs?: string[]
  /** A read-only git part: where it runs (its last `-C`), and where its diff options go. */
  git?: GitPart
}

export interface GitPart {
  /** The folder of its last `-C`, as seen from the workspace; none: the workspace. */
  folder?: string
  /** Where `--no-ext-diff --no-textconv` go in the command (after a diff printer's name). */
  diffOptionsAt?: number
}

export type CommandClass = { parsed: false } | { parsed: true; parts: CommandPart[] }

/** Node types that only group other parts: their parts are judged, not the group. */
const TRANSPARENT = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'negated_command',
  'comment',
])
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect'])
const WRITE_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&', '&>|'])

export function classifyCommand(command: string): Promise<CommandClass> {
  const known = recent.get(command)
  if (known !== undefined) return known
  const classified = withBashTree(command, (root): CommandClass => {
    if (root === undefined) return { parsed: false }
    const parts: CommandPart[] = []
    walk(root, parts, undefined)
    return { parsed: true, parts }
  })
  recent.set(command, classified)
  if (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value as string)
  // A parse that failed is not kept: the next call tries again.
  classified.catch(() => recent.delete(command))
  return classified
}

/**
 * The latest classifications, by command: one call is judged (the access hook), confined and
 * checked for the network from one parse. Results are read, never changed, by their callers.
 */
const recent = new Map<string, Promise<CommandClass>>()
const RECENT_LIMIT = 16

/** A command runs unasked when every part is read-only (and it has one). */
export function isReadOnly(parts: readonly CommandPart[]): boolean {
  return parts.length > 0 && parts.every((part) => part.readOnly)
}

function walk(node: BashNode, parts: CommandPart[], owner: CommandPart | undefined): void {
  const type = node.type
  if (type === 'command') return commandOf(node, parts)
  if (type === 'command_substitution' || type === 'process_substitution') {
    if (owner !== undefined) owner.readOnly = false
    return children(node, parts, undefined)
  }
  if (type === 'redirected_statement') return redirected(node, parts)
  if (REDIRECTS.has(type)) return redirect(node, parts, owner)
  if (type === 'test_command') {
    const test: CommandPart = { text: node.text, readOnly: isTestLiteral(node), files: [] }
    parts.push(test)
    return children(node, parts, test)
  }
  if (TRANSPARENT.has(type) || owner !== undefined || !node.isNamed) {
    return children(node, parts, owner)
  }
  // Anything else at statement level (a loop, an if, a function, an assignment, export,
  // `((…))`): the table cannot see through it, so it is a part that is not read-only.
  const opaque: CommandPart = { text: node.text, readOnly: false, files: [] }
  parts.push(opaque)
  children(node, parts, opaque)
}

function children(node: BashNode, parts: CommandPart[], owner: CommandPart | undefined): void {
  for (const child of node.namedChildren) if (child !== null) walk(child, parts, owner)
}

function redirected(node: BashNode, parts: CommandPart[]): void {
  const from = parts.length
  const redirects: BashNode[] = []
  for (const child of node.namedChildren) {
    if (child === null) continue
    if (REDIRECTS.has(child.type)) redirects.push(child)
    else walk(child, parts, undefined)
  }
  const owner = parts.slice(from).at(-1)
  for (const each of redirects) walk(each, parts, owner)
}

/**
 * A redirection of `owner`: writing a file is a part of its own; reading one adds the file;
 * a here-document or here-string that expands makes the owner not read-only.
 */
function redirect(node: BashNode, parts: CommandPart[], owner: CommandPart | undefined): void {
  const unowned = () => {
    const part: CommandPart = { text: node.text, readOnly: false, files: [] }
    parts.push(part)
    return part
  }
  if (node.type === 'heredoc_redirect') {
    if (!isLiteralHeredoc(node)) (owner ?? unowned()).readOnly = false
    return children(node, parts, owner)
  }
  if (node.type === 'herestring_redirect') {
    const word = node.namedChildren.at(-1)
    if (word == null || literalWord(word) === undefined) (owner ?? unowned()).readOnly = false
    return children(node, parts, owner)
  }
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.type ?? ''
  const target = node.childForFieldName('destination') ?? node.namedChildren.at(-1)
  const path = target ? literalWord(target) : undefined
  if (WRITE_OPERATORS.has(operator)) {
    if (!writesFile(operator, target, path)) return children(node, parts, owner)
    const file = path?.glob === -1 ? path.text : undefined
    parts.push({
      text: node.text,
      readOnly: false,
      files: [],
      ...(file !== undefined && { allow: { key: `> ${file}`, label: `writing to \`${file}\`` } }),
    })
    return children(node, parts, owner)
  }
  // A read (`< file`, `0< file`) or a descriptor taken apart (`<&-`).
  const reader = owner ?? unowned()
  if (path === undefined || path.glob >= 0) reader.readOnly = false
  else if (operator === '<') reader.files.push(path.text)
  children(node, parts, owner)
}

/** A write redirection that reaches a file (not a descriptor duplication, not /dev/null). */
function writesFile(
  operator: string,
  target: BashNode | null | undefined,
  path: LiteralWord | undefined,
): boolean {
  if (path?.text === '/dev/null') return false
  if (operator === '>&' && (target?.type === 'number' || path?.text === '-')) return false
  return true
}

function commandOf(node: BashNode, parts: CommandPart[]): void {
  let name: string | undefined
  let assigns = false
  const words: (LiteralWord | undefined)[] = []
  const wordNodes: BashNode[] = []
  const rest: BashNode[] = []
  for (const child of node.namedChildren) {
    if (child === null) continue
    rest.push(child)
    if (child.type === 'command_name') {
      const word = child.namedChildren[0]
      const literal = word ? literalWord(word) : undefined
      name = literal === undefined || literal.glob >= 0 ? undefined : literal.text
    } else if (child.type === 'variable_assignment') {
      assigns = true
    } else if (!REDIRECTS.has(child.type)) {
      words.push(literalWord(child))
      wordNodes.push(child)
    }
  }
  const literal = words.every((word) => word !== undefined)
  const files =
    name !== undefined && !assigns && literal
      ? readOnlyFiles(name, words as LiteralWord[])
      : undefined
  const allow = name === undefined ? undefined : allowOf(name, words, assigns)
  const part: CommandPart = {
    text: node.text,
    readOnly: files !== undefined,
    files: files ?? [],
    ...(allow !== undefined && { allow }),
    ...(name !== undefined && needsNetwork(name, words) && { network: true }),
    ...(files !== undefined && readOnlyFacts(name as string, words as LiteralWord[], wordNodes)),
  }
  parts.push(part)
  for (const child of rest) walk(child, parts, part)
}

/** What the access hook looks up on disk for a read-only part: its program, globs, git. */
function readOnlyFacts(
  name: string,
  words: readonly LiteralWord[],
  nodes: readonly BashNode[],
): Pick<CommandPart, 'program' | 'globs' | 'git'> {
  const globs = readsFiles(name)
    ? words.filter((word) => word.glob >= 0).map((word) => word.text)
    : []
  const read = name === 'git' ? gitReads(words) : undefined
  const printer = read !== undefined && DIFF_PRINTERS.has(read.subcommand)
  const folder = read?.folders.at(-1)
  const git: GitPart | undefined = read && {
    ...(folder !== undefined && { folder }),
    ...(printer && { diffOptionsAt: (nodes[read.at] as BashNode).endIndex }),
  }
  return { program: name, ...(globs.length > 0 && { globs }), ...(git && { git }) }
}
