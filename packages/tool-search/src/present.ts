// The search cards: `Find <pattern>` (glob) and `Search <pattern>` (grep), then ` in <path>`
// when a path is given and ` (<glob>)` when a glob is; kind `search`. After the result, the
// card points at what was found — glob's files (at most MAX_LOCATIONS), grep's matched lines
// (./grep-locations) — never at a directory, which an editor would fail to open.
// The card's content is the result text (a UI shows it when the result card brings none).
// Pure and total: presentation runs on whatever arguments a UI replays.
import { isAbsolute, relative } from 'node:path'
import type {
  ToolLocation,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'

/** The pattern keeps this many UTF-16 units in a title, then `…`. */
export const TITLE_PATTERN_CHARS = 80
/** Files a finished card points at (glob's; grep's listed files, or its files past the lines). */
export const MAX_LOCATIONS = 20
/** Matched lines a finished grep card points at before it gives further files once. */
export const MAX_LINE_LOCATIONS = 50

/** `details` of both tools: where the search started and the files it shows first. */
export interface SearchDetails {
  /** The search root, absolute. */
  root: string
  /** Where the result points (absolute), in result order; grep's with a line. */
  files: ToolLocation[]
}

export function clipPattern(pattern: string): string {
  if (pattern.length <= TITLE_PATTERN_CHARS) return pattern
  const code = pattern.charCodeAt(TITLE_PATTERN_CHARS - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? TITLE_PATTERN_CHARS - 1 : TITLE_PATTERN_CHARS
  return `${pattern.slice(0, end)}…`
}

/** `path` as given, or relative to `view.cwd` when it lies inside it. */
function shownPath(path: string, view?: ToolPresentationView): string {
  const cwd = view?.cwd
  if (cwd === undefined || !isAbsolute(path) || !isAbsolute(cwd)) return path
  const rel = relative(cwd, path)
  if (rel === '') return '.'
  if (rel === '..' || rel.startsWith('../') || rel.startsWith('..\\') || isAbsolute(rel)) {
    return path
  }
  return rel
}

export function searchTitle(
  verb: 'Find' | 'Search',
  args: { pattern: string; path?: string; glob?: string },
  view?: ToolPresentationView,
): string {
  let title = `${verb} ${clipPattern(args.pattern)}`
  if (args.path !== undefined) title += ` in ${shownPath(args.path, view)}`
  if (args.glob !== undefined) title += ` (${args.glob})`
  return title
}

/** The finished card: the files found as its locations; errors keep the call's card. */
export function presentSearchResult(
  result: ToolResultView<SearchDetails>,
): ToolResultPresentation | undefined {
  const details = result.details
  if (result.isError || details === undefined || !Array.isArray(details.files)) return undefined
  if (details.files.length === 0) return undefined
  return { locations: details.files.slice(0, MAX_LINE_LOCATIONS + MAX_LOCATIONS) }
}
