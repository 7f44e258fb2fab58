// The command classifier: a command line parsed by bash's grammar (./parse), split into its
// parts — every simple command, including those inside pipes, lists, subshells and command or
// process substitutions — and each part judged read-only or not (./read-only). A redirection
// that writes a file is a part of its own (`> out.txt`), never read-only; a command whose
// arguments hold a substitution is not read-only; nor is
// anything the table cannot see through (a loop, a function, an assignment, a command whose
// name is computed). A command that does not parse is unknown.
// Pure but for the parser's one-time load.
import { withBashTree } from './parse'
import type { BashNode } from './parse'
import { commandPrefix, isReadOnlyCommand } from './read-only'

export interface CommandPart {
  /** The part as written. */
  text: string
  /** What "always allow" remembers of it: `git add`, `npm run build`, `ls`; else the text. */
  prefix: string
  readOnly: boolean
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

export async function classifyCommand(command: string): Promise<CommandClass> {
  return withBashTree(command, (root) => {
    if (root === undefined) return { parsed: false }
    const parts: CommandPart[] = []
    walk(root, parts, undefined)
    return { parsed: true, parts }
  })
}

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
  if (REDIRECTS.has(type)) {
    if (writesFile(node)) parts.push(redirectPart(node))
    return children(node, parts, owner)
  }
  if (type === 'test_command') {
    parts.push({ text: node.text, prefix: 'test', readOnly: true })
    return children(node, parts, parts.at(-1))
  }
  if (TRANSPARENT.has(type) || owner !== undefined || !node.isNamed) {
    return children(node, parts, owner)
  }
  // Anything else at statement level (a loop, an if, a function, an assignment, export): the
  // table cannot see through it, so it is a part of its own that is not read-only.
  const opaque: CommandPart = { text: node.text, prefix: node.text, readOnly: false }
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
  for (const redirect of redirects) walk(redirect, parts, owner)
}

/** A redirection that writes a file is a part of its own: always allowing it names the file. */
function redirectPart(redirect: BashNode): CommandPart {
  const target = redirect.childForFieldName('destination') ?? redirect.namedChildren.at(-1)
  return { text: redirect.text, prefix: `> ${target?.text ?? ''}`, readOnly: false }
}

function commandOf(node: BashNode, parts: CommandPart[]): void {
  let name: string | undefined
  let computedName = false
  let assigns = false
  const args: string[] = []
  let dynamic = false
  const rest: BashNode[] = []
  for (const child of node.namedChildren) {
    if (child === null) continue
    if (child.type === 'command_name') {
      const word = child.namedChildren[0]
      name = word ? staticWord(word) : undefined
      computedName = name === undefined
      rest.push(child)
    } else if (child.type === 'variable_assignment') {
      assigns = true
      rest.push(child)
    } else if (REDIRECTS.has(child.type)) {
      rest.push(child)
    } else {
      const word = staticWord(child)
      if (word === undefined) dynamic = true
      else if (!dynamic) args.push(word)
      rest.push(child)
    }
  }
  const part: CommandPart = {
    text: node.text,
    prefix: name === undefined || computedName ? node.text : commandPrefix(name, args),
    readOnly: name !== undefined && !assigns && isReadOnlyCommand(name, args, dynamic),
  }
  parts.push(part)
  for (const child of rest) walk(child, parts, part)
}

/** The word as the shell passes it, when it is fixed in the text; `undefined` when computed. */
function staticWord(node: BashNode): string | undefined {
  switch (node.type) {
    case 'word':
    case 'number':
      return node.text.replace(/\\(.)/g, '$1')
    case 'raw_string':
      return node.text.slice(1, -1)
    case 'string':
      return node.namedChildren.every((child) => child?.type === 'string_content')
        ? node.text.slice(1, -1)
        : undefined
    case 'concatenation': {
      const pieces = node.namedChildren.map((child) => (child ? staticWord(child) : undefined))
      return pieces.every((piece) => piece !== undefined) ? pieces.join('') : undefined
    }
    default:
      return undefined
  }
}

/** A redirection that writes a file (not a descriptor duplication, not /dev/null). */
function writesFile(redirect: BashNode): boolean {
  if (redirect.type !== 'file_redirect') return false
  const operator = redirect.children.find((child) => child !== null && !child.isNamed)?.type
  if (operator === undefined || !WRITE_OPERATORS.has(operator)) return false
  const target = redirect.childForFieldName('destination') ?? redirect.namedChildren.at(-1)
  const path = target ? staticWord(target) : undefined
  if (path === '/dev/null') return false
  if (operator === '>&' && (target?.type === 'number' || path === '-')) return false
  return true
}
