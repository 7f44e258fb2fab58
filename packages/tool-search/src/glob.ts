// The `glob` tool: the files ripgrep would search under the root (`--files`: ignore files
// honoured, hidden files in, `.git/` out, symlinks not followed), those whose path relative to
// the root matches the pattern, newest modified first (ties by path). Each file that matches
// is stat'ed here as ripgrep's output arrives (`newest-first.ts`), and only the newest
// `limit` are kept, so memory stays bounded and a file that does not match costs a match
// alone.
import { availableParallelism } from 'node:os'
import { isAbsolute, resolve } from 'node:path'
import { z } from 'zod'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { compileGlob, nameFilterFlags } from './glob-match'
import { NewestFirst } from './newest-first'
import { MAX_LOCATIONS, presentSearchResult, searchTitle } from './present'
import type { SearchDetails } from './present'
import { PathListParser } from './records'
import { ResultLines } from './result-lines'
import { rootPath, searchRoot, underRoot, workspaceOf } from './roots'
import { BASE_ARGS, failureOf, partialNote, search } from './search'
import type { SearchOptions } from './search'

export const GLOB_MAX_LINES = 100

export const globInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'A glob matched against paths relative to path: "**/*.ts" (any depth), "src/*.ts" (directly in src), "*.{js,json}"; also ? and [ab].',
    ),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('The directory to search under (default: the workspace).'),
})

export type GlobArgs = z.infer<typeof globInput>

export function createGlobTool(options: SearchOptions) {
  return defineTool<typeof globInput, SearchDetails>({
    name: 'glob',
    description:
      'Find files by name: the paths matching a glob pattern, newest modified first. Honours .gitignore.',
    input: globInput,
    execute: (args, exec) => applyGlob(options, args, exec),
    presentCall: (args, view) => ({ title: searchTitle('Find', args, view), kind: 'search' }),
    presentResult: (_args, result) => presentSearchResult(result),
    access: (args, exec) => ({ effect: 'read', scope: [rootPath(args.path, workspaceOf(exec))] }),
  })
}

async function applyGlob(options: SearchOptions, args: GlobArgs, exec: ToolExecution) {
  const matches = compileGlob(args.pattern, false)
  const root = await searchRoot(args.path, exec, 'glob')
  const newest = new NewestFirst(root.cwd, GLOB_MAX_LINES)
  let total = 0
  const chunk: string[] = []
  const parser = new PathListParser((path) => {
    if (matches(underRoot(root, path))) chunk.push(path)
    return true
  })
  const onData = (data: Buffer): boolean => {
    parser.push(data)
    total += chunk.length
    newest.takeAll(chunk)
    chunk.length = 0
    return true
  }
  // Sorting in ripgrep (`--sortr modified`) would put every stat on its one walking thread and
  // print nothing before the end; here each match is stat'ed as it arrives, beside the walk.
  const flags = [...BASE_ARGS, '--files', ...walkFlags(), ...nameFilterFlags(args.pattern)]
  const exit = await search(options, root, flags, onData, exec)
  const failure = failureOf(exit, total)
  if (failure) throw failure
  const result = new ResultLines(0, GLOB_MAX_LINES)
  const sorted = newest.sorted()
  for (const found of sorted) if (!result.push(found.path)) break
  const files = sorted.slice(0, Math.min(result.lines.length, MAX_LOCATIONS)).map((found) => ({
    path: isAbsolute(found.path) ? found.path : resolve(root.cwd, found.path),
  }))
  const note = partialNote(exit)
  const text = render(args.pattern, result, total) + (note === undefined ? '' : `\n${note}`)
  return { content: text, details: { root: root.absolute, files } }
}

/**
 * How ripgrep walks the tree. On two cores or fewer, on one thread (`--sort path` takes its
 * sequential walker; the order it gives is not used): there the parallel walker spends a third
 * to a half more CPU for a listing no quicker, and the stats here need the other core. With
 * more cores the parallel walk is left to scale with the tree.
 */
function walkFlags(): string[] {
  return availableParallelism() <= 2 ? ['--sort', 'path'] : []
}

function render(pattern: string, result: ResultLines, total: number): string {
  if (total === 0) {
    const hint =
      !pattern.includes('/') && !pattern.startsWith('**')
        ? ` "${pattern}" matches only directly under the path; "**/${pattern}" matches at any depth.`
        : ''
    return `No files found.${hint}`
  }
  const shown = result.lines.length
  const text = result.lines.join('\n')
  if (shown === total) return text
  return (
    `${text}\n\n(${total - shown} more file${total - shown === 1 ? '' : 's'} matched; showing ` +
    `the ${shown} most recently modified. Narrow the search: a longer pattern or a path.)`
  )
}
