// The card a person sees for a read: a one-line summary of the window ("Lines 5–10 of 14"),
// then the window's text as it is in the file, in a fenced block tagged with the language its
// extension names. Not the model's text (./read-render, unchanged): no `<path>` framing, no
// line-number prefixes, no "Use offset=… to continue". Pure and Cordis-free.
import { basename, extname } from 'node:path'
import type { ToolPresentationContent } from '@deepseek-ai/dsh-tools'
import { LINE_TRUNCATED_SUFFIX, READ_MAX_LINE_CHARS, formatLineCount } from './read-render'

/** What the card is made of: the window a read showed and what is known of the file. */
export interface ReadCardWindow {
  /** The file (for its language). */
  path: string
  startLine: number
  /** The window's lines as the read tool cut them (CR dropped, long lines cut with the suffix). */
  lines: readonly string[]
  totalLines?: number
  capped: boolean
}

/** Fence tags by extension (lower case, without the dot); others get no tag. */
// prettier-ignore
const LANGUAGES: Record<string, string> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx',
  json: 'json', jsonc: 'jsonc', json5: 'json5', md: 'markdown', mdx: 'mdx',
  py: 'python', pyi: 'python', rb: 'ruby', rs: 'rust', go: 'go', java: 'java',
  kt: 'kotlin', kts: 'kotlin', scala: 'scala', swift: 'swift', dart: 'dart',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hh: 'cpp', hpp: 'cpp', cs: 'csharp',
  m: 'objectivec', php: 'php', lua: 'lua', pl: 'perl', r: 'r', jl: 'julia', ex: 'elixir',
  exs: 'elixir', erl: 'erlang', hs: 'haskell', ml: 'ocaml', clj: 'clojure', zig: 'zig',
  sh: 'bash', bash: 'bash', zsh: 'zsh', fish: 'fish', ps1: 'powershell',
  html: 'html', htm: 'html', xml: 'xml', svg: 'xml', css: 'css', scss: 'scss', sass: 'sass',
  less: 'less', vue: 'vue', svelte: 'svelte', yml: 'yaml', yaml: 'yaml', toml: 'toml',
  ini: 'ini', sql: 'sql', graphql: 'graphql', proto: 'protobuf', tf: 'hcl', diff: 'diff',
  patch: 'diff', dockerfile: 'dockerfile', mk: 'makefile',
}

/** Fence tags of files known by name rather than extension. */
const NAMED: Record<string, string> = {
  Dockerfile: 'dockerfile',
  Makefile: 'makefile',
  GNUmakefile: 'makefile',
}

/** The fence tag for a file, or '' when its extension names no language. */
export function languageOf(path: string): string {
  const name = basename(path)
  const named = NAMED[name]
  if (named !== undefined) return named
  return LANGUAGES[extname(name).slice(1).toLowerCase()] ?? ''
}

/** The read card's content: the summary line, then the window's text fenced (when it has any). */
export function readCardContent(window: ReadCardWindow): ToolPresentationContent[] {
  const { lines } = window
  let cut = 0
  const text = lines
    .map((line) => {
      // The read cuts only lines longer than READ_MAX_LINE_CHARS, so only those are longer.
      if (line.length <= READ_MAX_LINE_CHARS || !line.endsWith(LINE_TRUNCATED_SUFFIX)) return line
      cut++
      return line.slice(0, -LINE_TRUNCATED_SUFFIX.length)
    })
    .join('\n')
  const summary = readSummary(window) + cutNote(cut)
  if (lines.length === 0) return [{ type: 'text', text: summary }]
  return [
    { type: 'text', text: summary },
    { type: 'text', text: fenced(text, languageOf(window.path)) },
  ]
}

/** "Lines 5–10 of 14", "Line 3 of 14", "14 lines" (the whole file), "Empty file", "Lines 5–10". */
export function readSummary(window: ReadCardWindow): string {
  const { startLine, lines, totalLines, capped } = window
  if (lines.length === 0) return totalLines === 0 ? 'Empty file' : 'No lines'
  const last = startLine + lines.length - 1
  const range = lines.length === 1 ? `Line ${startLine}` : `Lines ${startLine}–${last}`
  if (capped) return `${range} (the read stopped at 50 KiB)`
  // Lines read alone (a range through an editor): the file's length is not known.
  if (totalLines === undefined) return range
  if (startLine === 1 && last === totalLines) return formatLineCount(totalLines)
  return `${range} of ${totalLines}`
}

function cutNote(cut: number): string {
  if (cut === 0) return ''
  const which = cut === 1 ? '1 long line' : `${cut} long lines`
  return `; ${which} cut at ${READ_MAX_LINE_CHARS} characters`
}

/** The text in a fence longer than any run of backticks in it. */
export function fenced(text: string, language: string): string {
  let longest = 0
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length)
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}${language}\n${text}\n${fence}`
}
