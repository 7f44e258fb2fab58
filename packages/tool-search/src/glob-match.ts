// Glob patterns matched against `/`-separated relative paths, in Node: `**` (any number of
// whole path segments), `*` and `?` (within one segment; they match a leading dot too),
// `{a,b}` (alternatives, nestable), `[ab]` / `[!ab]` / `[^ab]` (one character of a class) and
// `\` (the next character literally). ripgrep's own `--glob` would let a matching file past
// the ignore files, so the tools list (or search) what ripgrep honours and filter here.
// Pure; an unclosed `[` or `{` is a SearchError the model can fix.
import { SearchError } from './errors'

export type PathMatcher = (relativePath: string) => boolean

/**
 * A matcher for `pattern` against a path relative to the search root. `basenameWhenNoSlash`:
 * a pattern without `/` matches the file name at any depth (as `--glob '*.ts'` does); else it
 * matches the whole relative path. A leading `/` or `./` anchors at the root either way.
 */
export function compileGlob(pattern: string, basenameWhenNoSlash: boolean): PathMatcher {
  let body = pattern
  let anchored = false
  while (body.startsWith('./') || body.startsWith('/')) {
    body = body.slice(body.startsWith('/') ? 1 : 2)
    anchored = true
  }
  const regex = new RegExp(`^${translate(body, pattern)}$`, 'u')
  if (basenameWhenNoSlash && !anchored && !body.includes('/')) {
    return (path) => regex.test(path.slice(path.lastIndexOf('/') + 1))
  }
  return (path) => regex.test(path)
}

function invalid(pattern: string, why: string): SearchError {
  return new SearchError(
    'SEARCH_INVALID_PATTERN',
    `Invalid glob ${JSON.stringify(pattern)}: ${why}. Use *, **, ?, {a,b} and [ab]; ` +
      'escape a literal [ { } or \\ with a backslash.',
  )
}

function escapeChar(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char
}

function translate(glob: string, whole: string): string {
  let out = ''
  let depth = 0
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/'
        const end = i + 2
        if (atStart && (end === glob.length || glob[end] === '/')) {
          // `**/` → any number of leading segments; a trailing `**` → everything below.
          if (end === glob.length) out += '.*'
          else {
            out += '(?:.*/)?'
            i = end
            continue
          }
          i = end - 1
          continue
        }
      }
      while (glob[i + 1] === '*') i++
      out += '[^/]*'
    } else if (char === '?') out += '[^/]'
    else if (char === '[') {
      const close = classEnd(glob, i)
      if (close === -1) throw invalid(whole, 'a [ is never closed')
      let inner = glob.slice(i + 1, close)
      const negated = inner.startsWith('!') || inner.startsWith('^')
      if (negated) inner = inner.slice(1)
      const set = [...inner].map((c) => (c === '-' ? '-' : escapeChar(c))).join('')
      out += negated ? `[^/${set}]` : `[${set}]`
      i = close
    } else if (char === '{') {
      depth++
      out += '(?:'
    } else if (char === '}' && depth > 0) {
      depth--
      out += ')'
    } else if (char === ',' && depth > 0) out += '|'
    else if (char === '\\') {
      const next = glob[++i]
      if (next === undefined) throw invalid(whole, 'it ends with a lone backslash')
      out += escapeChar(next)
    } else out += escapeChar(char)
  }
  if (depth > 0) throw invalid(whole, 'a { is never closed')
  return out
}

/** Index of the `]` closing the class opened at `open` (a `]` first in the class is literal). */
function classEnd(glob: string, open: number): number {
  let i = open + 1
  if (glob[i] === '!' || glob[i] === '^') i++
  if (glob[i] === ']') i++
  const close = glob.indexOf(']', i)
  return close
}

/**
 * ripgrep flags that list only files whose name matches the pattern's last segment: a type
 * filter, which (unlike `--glob`) never lets an ignored file back in. A necessary condition
 * only — the matcher still decides — so it is left out wherever it could be wrong: `**`, an
 * escape, a `,` or `:` that ripgrep's type syntax reads itself, braces spanning a `/`.
 */
export function nameFilterFlags(pattern: string): string[] {
  const name = pattern.slice(pattern.lastIndexOf('/') + 1)
  if (name === '' || name.includes('**') || /[\\:]/.test(name)) return []
  let depth = 0
  for (const char of name) {
    if (char === '{') depth++
    else if (char === '}') depth--
    else if (char === ',' && depth === 0) return []
    if (depth < 0) return []
  }
  if (depth !== 0) return []
  return ['--type-add', `dshsearch:${name}`, '--type', 'dshsearch']
}
