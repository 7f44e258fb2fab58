// What both tools share around one ripgrep run: the arguments every search has (hidden files
// searched, `.git/` left out, ignore files honoured, symlinks not followed, no user config),
// and the outcome turned into errors the model can act on: a timeout, a cancel, a pattern
// ripgrep refused, any other failure. The parsing of what it printed is the caller's.
import { existsSync } from 'node:fs'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { noRipgrep, ripgrepPath } from './engine'
import { SearchError } from './errors'
import { runRipgrep } from './process'
import type { RipgrepExit } from './process'
import type { SearchRoot } from './roots'

/** What the tools take from their plugin's config. */
export interface SearchOptions {
  /** The longest a search may run, in ms. */
  timeoutMs: number
  /** A ripgrep binary to use instead of the package's (or PATH's). */
  rgPath?: string
}

/**
 * The flags of every search: `--hidden` (dotfiles and dot-folders), `.git` left out, no
 * config file (RIPGREP_CONFIG_PATH could change the output), no colour, NUL after each path.
 * Symlinks are not followed (ripgrep's default), ignore files are honoured (its default too).
 */
export const BASE_ARGS = [
  '--no-config',
  '--hidden',
  '--glob',
  '!.git',
  '--color',
  'never',
  '--null',
]

/** Runs ripgrep on the root with `args` (then the root), feeding its output to `onData`. */
export async function search(
  options: SearchOptions,
  root: SearchRoot,
  args: readonly string[],
  onData: (chunk: Buffer) => boolean,
  exec: ToolExecution,
): Promise<RipgrepExit> {
  const bin = await ripgrepPath(options.rgPath)
  const exit = await runRipgrep({
    bin,
    args: root.arg === undefined ? args : [...args, '--', root.arg],
    cwd: root.cwd,
    onData,
    signal: exec.signal,
    timeoutMs: options.timeoutMs,
  }).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code
    if (code !== 'ENOENT' && code !== 'EACCES') throw error
    // Either the working directory is gone or the binary cannot run (a wrong configured path).
    if (!existsSync(root.cwd)) {
      throw new SearchError(
        'SEARCH_NOT_FOUND',
        `The workspace ${root.cwd} does not exist any more; search an absolute path instead.`,
      )
    }
    throw noRipgrep(bin)
  })
  if (exit.aborted) throw abortError(exec.signal)
  if (exit.timedOut) {
    throw new SearchError(
      'SEARCH_TIMEOUT',
      `The search took longer than ${formatSeconds(options.timeoutMs)} and was stopped. ` +
        'Narrow it: a path deeper in the tree, a glob such as "*.ts", or a more specific pattern.',
    )
  }
  return exit
}

/** ripgrep exits 2 on an error; a refused pattern is reported before anything is searched. */
export function failureOf(exit: RipgrepExit, found: number): SearchError | undefined {
  if (exit.stopped || exit.code !== 2) return undefined
  const message = exit.stderr.trim()
  if (found > 0) return undefined
  if (/regex parse error|error parsing/i.test(message)) {
    return new SearchError(
      'SEARCH_INVALID_PATTERN',
      `ripgrep refused the pattern:\n${message}\nFix the pattern (escape special characters ` +
        'with a backslash, or set fixed_strings to true to search the text literally).',
    )
  }
  // Files it could not read ("… (os error 13)") leave the search standing: a note, not a failure.
  if (/\(os error \d+\)/.test(message)) return undefined
  return new SearchError('SEARCH_FAILED', `ripgrep failed: ${message}`)
}

/** The first message ripgrep gave about paths it could not search, when results came anyway. */
export function partialNote(exit: RipgrepExit): string | undefined {
  if (exit.stopped || exit.code !== 2) return undefined
  const first = exit.stderr.split('\n')[0]?.trim()
  return first ? `(Some paths could not be searched: ${first})` : undefined
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason
  return reason instanceof Error ? reason : new Error('The search was cancelled.')
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
