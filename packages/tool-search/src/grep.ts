// The `grep` tool: ripgrep over the root, its output read as it streams, formatted into result
// lines (offset, head_limit, the line and size caps), and ripgrep ended as soon as the result
// is full. Files and counts come from ripgrep's own lists; content from its line output.
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { compileGlob, nameFilterFlags } from './glob-match'
import type { PathMatcher } from './glob-match'
import { DEFAULT_HEAD_LIMIT, grepFlags, grepInput } from './grep-input'
import type { GrepArgs } from './grep-input'
import { clipPattern, presentSearchResult, searchTitle } from './present'
import { GrepLocations } from './grep-locations'
import type { SearchDetails } from './present'
import { CountParser, LineParser, PathListParser } from './records'
import type { LineRecord } from './records'
import { closingLine, ResultLines } from './result-lines'
import { rootPath, searchRoot, underRoot, workspaceOf } from './roots'
import type { SearchRoot } from './roots'
import { failureOf, partialNote, search } from './search'
import type { SearchOptions } from './search'

export function createGrepTool(options: SearchOptions) {
  return defineTool<typeof grepInput, SearchDetails>({
    name: 'grep',
    description:
      'Search file contents with a regular expression (ripgrep). Lists matching files, matching lines, or counts; honours .gitignore.',
    input: grepInput,
    execute: (args, exec) => applyGrep(options, args, exec),
    presentCall: (args, view) => ({
      title: searchTitle('Search', args, view),
      kind: 'search',
      rawInput: grepSummary(args),
    }),
    presentResult: (_args, result) => presentSearchResult(result),
    access: (args, exec) => ({ effect: 'read', scope: [rootPath(args.path, workspaceOf(exec))] }),
  })
}

/**
 * What the running card shows: the pattern, then the options beyond path and glob
 * (`pattern: needle, content, context 2`).
 */
function grepSummary(args: GrepArgs): string {
  const parts: string[] = [`pattern: ${clipPattern(args.pattern)}`]
  if (args.output_mode !== undefined) parts.push(args.output_mode)
  if (args.context) parts.push(`context ${args.context}`)
  if (args.case_insensitive) parts.push('case-insensitive')
  if (args.fixed_strings) parts.push('fixed strings')
  if (args.multiline) parts.push('multiline')
  if (args.head_limit !== undefined) parts.push(`head_limit ${args.head_limit}`)
  if (args.offset) parts.push(`offset ${args.offset}`)
  return parts.join(', ')
}

async function applyGrep(options: SearchOptions, args: GrepArgs, exec: ToolExecution) {
  const matcher = args.glob === undefined ? undefined : compileGlob(args.glob, true)
  const root = await searchRoot(args.path, exec, 'grep')
  const result = new ResultLines(args.offset ?? 0, args.head_limit ?? DEFAULT_HEAD_LIMIT)
  const files = new GrepLocations(root)
  const keep = pathFilter(root, matcher)
  const mode = args.output_mode ?? 'files_with_matches'
  const listed = (path: string, line: string): boolean => {
    if (!keep(path)) return true
    const before = result.lines.length
    if (!result.push(line)) return false
    if (result.lines.length > before) files.noteLine(path, undefined, false)
    return true
  }
  const parser =
    mode === 'files_with_matches'
      ? new PathListParser((path) => listed(path, path))
      : mode === 'count'
        ? new CountParser((path, n) => listed(path, `${path}:${n}`))
        : new LineParser(contentLines(result, files, keep, args.context ?? 0))
  const flags = [...grepFlags(args), ...(args.glob === undefined ? [] : nameFilterFlags(args.glob))]
  const exit = await search(options, root, flags, (chunk) => parser.push(chunk), exec)
  const failure = failureOf(exit, result.seen)
  if (failure) throw failure
  if (mode !== 'content') await files.findLines(options, args, exec)
  const text = render(result, root, partialNote(exit))
  return { content: text, details: { root: root.absolute, files: files.located() } }
}

function pathFilter(root: SearchRoot, matcher: PathMatcher | undefined) {
  if (matcher === undefined) return () => true
  let last = ''
  let verdict = false
  return (path: string) => {
    if (path !== last) {
      last = path
      verdict = matcher(underRoot(root, path))
    }
    return verdict
  }
}

/** Content records → `path:N:text` / `path-N-text` lines, `--` between groups (with context). */
function contentLines(
  result: ResultLines,
  files: GrepLocations,
  keep: (path: string) => boolean,
  context: number,
) {
  let lastPath: string | undefined
  let lastLine = 0
  return (record: LineRecord): boolean => {
    if (!keep(record.path)) return true
    if (context > 0 && lastPath !== undefined) {
      if (record.path !== lastPath || record.line > lastLine + 1) {
        if (!result.push('--')) return false
      }
    }
    lastPath = record.path
    lastLine = record.line
    const separator = record.match ? ':' : '-'
    const before = result.lines.length
    if (!result.push(`${record.path}${separator}${record.line}${separator}${record.text}`)) {
      return false
    }
    if (result.lines.length > before) files.noteLine(record.path, record.line, record.match)
    return true
  }
}

function render(result: ResultLines, root: SearchRoot, note: string | undefined): string {
  const where = root.isFile ? 'the file' : 'a narrower path or glob'
  let text: string
  if (result.seen === 0) text = 'No matches found.'
  else if (result.lines.length === 0) {
    text =
      `No results past offset ${result.first - 1}: the search has ${result.seen} result ` +
      `line${result.seen === 1 ? '' : 's'}. Use an offset below ${result.seen}.`
  } else {
    const closing = closingLine(result, `search ${where}`)
    text = result.lines.join('\n') + (closing === undefined ? '' : `\n\n${closing}`)
  }
  return note === undefined ? text : `${text}\n${note}`
}
