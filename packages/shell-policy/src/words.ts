// Literal words: what bash passes for a word of the syntax tree, when that is fixed in the
// text. A word is literal when nothing in it is expanded at run time — no `$VAR` or `${…}`, no
// command, process or arithmetic substitution, no backticks, no tilde or brace expansion, no
// `$'…'` or `$"…"` — checked on the text itself as well as on the parser's nodes, so a
// construct the grammar reads differently from bash is not literal either. A glob (`*`, `?`,
// `[`) is literal but marked: the shell turns it into file names. Pure.
import type { BashNode } from './parse'

export interface LiteralWord {
  /** The word as the shell passes it (quotes and escapes removed). */
  text: string
  /** Where an unquoted `*`, `?` or `[` first stands in `text`; -1: no glob. */
  glob: number
}

/** Characters that make an unquoted word something other than itself. */
const UNQUOTED_EXPANDING = /[$`{}()<>;&|]/
/** In double quotes, `$` and backticks still expand. */
const QUOTED_EXPANDING = /(^|[^\\])(\\\\)*[$`]/

/** The word as the shell passes it, or `undefined` when any of it is computed at run time. */
export function literalWord(node: BashNode): LiteralWord | undefined {
  switch (node.type) {
    case 'word':
    case 'number':
      return unquoted(node.text)
    case 'raw_string':
      return { text: node.text.slice(1, -1), glob: -1 }
    case 'string':
      return doubleQuoted(node)
    case 'concatenation':
      return joined(node)
    default:
      return undefined
  }
}

/** An unquoted word: escapes removed, globs found, anything expanding refused. */
function unquoted(raw: string): LiteralWord | undefined {
  let text = ''
  let glob = -1
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] as string
    if (char === '\\') {
      const next = raw[i + 1]
      if (next === undefined) return undefined
      if (next !== '\n') text += next
      i++
      continue
    }
    if (UNQUOTED_EXPANDING.test(char) || char === '"' || char === "'") return undefined
    // A tilde starts a home folder at the start of a word, and after `=` or `:` as well.
    if (char === '~' && (i === 0 || raw[i - 1] === '=' || raw[i - 1] === ':')) return undefined
    if ((char === '*' || char === '?' || char === '[') && glob < 0) glob = text.length
    text += char
  }
  return { text, glob }
}

function doubleQuoted(node: BashNode): LiteralWord | undefined {
  const inner = node.text.slice(1, -1)
  const plain = node.namedChildren.every((child) => child?.type === 'string_content')
  if (!plain || QUOTED_EXPANDING.test(inner)) return undefined
  return {
    text: inner.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === '\n' ? '' : char)),
    glob: -1,
  }
}

function joined(node: BashNode): LiteralWord | undefined {
  let text = ''
  let glob = -1
  for (const child of node.children) {
    if (child === null) return undefined
    const piece = literalWord(child)
    if (piece === undefined) return undefined
    if (piece.glob >= 0 && glob < 0) glob = text.length + piece.glob
    text += piece.text
  }
  return { text, glob }
}

/**
 * A here-document that the shell passes as written: its delimiter is quoted (`<<'EOF'`,
 * `<<"EOF"`, `<<\EOF`), and the grammar ends its body where bash does — at the first line that
 * is the delimiter exactly (after leading tabs, for `<<-`). Any other here-document expands
 * `$…` and backticks in its body, so it is not literal.
 */
export function isLiteralHeredoc(redirect: BashNode): boolean {
  const start = redirect.namedChildren.find((child) => child?.type === 'heredoc_start')
  const body = redirect.namedChildren.find((child) => child?.type === 'heredoc_body')
  const end = redirect.namedChildren.find((child) => child?.type === 'heredoc_end')
  if (start == null || end == null) return false
  if (!/['"\\]/.test(start.text)) return false
  const delimiter = start.text.replace(/['"\\]/g, '')
  const stripTabs = redirect.children.some((child) => child?.type === '<<-')
  const line = (text: string) => (stripTabs ? text.replace(/^\t+/, '') : text)
  const lines = body == null ? [] : body.text.split('\n').slice(0, -1)
  if (body != null && body.namedChildren.length > 0) return false
  if (lines.some((text) => line(text) === delimiter)) return false
  const source = redirect.tree.rootNode.text
  const lineStart = source.lastIndexOf('\n', end.startIndex - 1) + 1
  const lineEnd = source.indexOf('\n', end.endIndex)
  const endLine = source.slice(lineStart, lineEnd < 0 ? source.length : lineEnd)
  return line(endLine) === delimiter && end.text === delimiter
}

/** The part of a file operand that is fixed: a glob is judged by the folder it starts in. */
export function pathOf(word: LiteralWord): string {
  if (word.glob < 0) return word.text
  const fixed = word.text.slice(0, word.glob)
  const slash = fixed.lastIndexOf('/')
  return slash < 0 ? '.' : fixed.slice(0, slash + 1)
}
