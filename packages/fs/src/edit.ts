// The edit rule every provider shares, as pure functions over text (the file's text without
// its BOM): `planTextEdit` finds the matches and their replacements (a provider then writes the
// file as pieces, see edit-bytes.ts) and the excerpt a diff is shown from.
// Matching is literal and counted without overlap. A line break in `oldString`
// matches either style in the file (LF or CRLF), and each line break of the replacement takes
// the ending of the file at that place, so a CRLF file stays CRLF, a mixed file keeps each
// line's own ending, and every character outside the matches stays as it was.
// Not here: reading or writing bytes, versions, locking (the provider does those).
import { ambiguousEditError, editNotFoundError, invalidEditError } from './failures'
import type { FsEditRequest, FsTextExcerpt } from './types'

/** The texts up to this many characters are shown whole in an edit's excerpt. */
export const EDIT_EXCERPT_WHOLE_MAX = 64 * 1024
const EXCERPT_SPAN_MAX = 64 * 1024
const EXCERPT_CONTEXT_LINES = 3

/** Where an edit lands, without the whole text after it (a provider may write it as pieces). */
export interface TextEditPlan {
  /** The matches in file order, each with its replacement (line endings already adapted). */
  matches: TextMatch[]
  replacements: number
  /** 1-based line where the first replacement starts. */
  line: number
  excerpt: FsTextExcerpt
}

/** One match, as a range of the text, and what replaces it. */
export interface TextMatch {
  start: number
  end: number
  replacement: string
}

/** Rejects a request that could never be a meaningful edit (FS_INVALID_EDIT). */
export function checkEditRequest(request: FsEditRequest, path?: string): void {
  const { oldString, newString } = request
  if (typeof oldString !== 'string' || oldString === '') {
    throw invalidEditError('empty-old-string', path)
  }
  if (typeof newString !== 'string') throw invalidEditError('not-a-string', path)
  if (oldString === newString) throw invalidEditError('unchanged', path)
}

/** Finds where a literal edit applies to `text`; throws FsError when it cannot apply exactly. */
export function planTextEdit(text: string, request: FsEditRequest, path?: string): TextEditPlan {
  checkEditRequest(request, path)
  const found = findMatches(text, request.oldString)
  if (found.length === 0) throw editNotFoundError(path)
  if (found.length > 1 && request.replaceAll !== true) throw ambiguousEditError(path, found.length)
  const newLines = request.newString.replace(/\r\n/g, '\n').split('\n')
  const matches: TextMatch[] = found.map((range) => ({
    ...range,
    replacement: joinWithEndings(newLines, endingsFor(text, range.start, range.end)),
  }))
  return {
    matches,
    replacements: matches.length,
    line: countBreaks(text, 0, matches[0]!.start) + 1,
    excerpt: buildExcerpt(text, matches),
  }
}

/** `text[from, to)` with the matches inside it (the first `count`) replaced. */
function spliceText(
  text: string,
  matches: readonly TextMatch[],
  from: number,
  to: number,
  count = matches.length,
): string {
  const pieces: string[] = []
  let cursor = from
  for (const match of matches.slice(0, count)) {
    pieces.push(text.slice(cursor, match.start), match.replacement)
    cursor = match.end
  }
  pieces.push(text.slice(cursor, to))
  return pieces.join('')
}

/** Non-overlapping matches of `oldString`, line breaks matching LF or CRLF, as file ranges. */
export function findMatches(text: string, oldString: string): { start: number; end: number }[] {
  const needle = oldString.replace(/\r\n/g, '\n')
  const { flat, breaks } = collapseCrlf(text)
  const toFile = (index: number): number => index + countBelow(breaks, index)
  const ranges: { start: number; end: number }[] = []
  for (let at = flat.indexOf(needle); at !== -1;) {
    const range = { start: toFile(at), end: toFile(at + needle.length) }
    // Half of a character (a lone surrogate at an edge of oldString) is no match.
    if (splitsPair(text, range.start) || splitsPair(text, range.end)) {
      at = flat.indexOf(needle, at + 1)
      continue
    }
    ranges.push(range)
    at = flat.indexOf(needle, at + needle.length)
  }
  return ranges
}

/** True when `index` falls between the two halves of a surrogate pair. */
function splitsPair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1)
  const after = text.charCodeAt(index)
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff
}

/** The text with each CRLF as LF, and the flat index of every collapsed break (ascending). */
function collapseCrlf(text: string): { flat: string; breaks: number[] } {
  const breaks: number[] = []
  for (let at = text.indexOf('\r\n'); at !== -1; at = text.indexOf('\r\n', at + 2)) {
    breaks.push(at - breaks.length)
  }
  return { flat: breaks.length === 0 ? text : text.replace(/\r\n/g, '\n'), breaks }
}

/** How many entries of the ascending `sorted` are below `value`. */
function countBelow(sorted: number[], value: number): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (sorted[middle]! < value) low = middle + 1
    else high = middle
  }
  return low
}

/** The line endings inside [start, end), else the ending of the line around the range. */
function endingsFor(text: string, start: number, end: number): string[] {
  const endings: string[] = []
  for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    endings.push(endingAt(text, at))
  }
  if (endings.length > 0) return endings
  const next = text.indexOf('\n', end)
  if (next !== -1) return [endingAt(text, next)]
  const previous = start > 0 ? text.lastIndexOf('\n', start - 1) : -1
  return [previous !== -1 ? endingAt(text, previous) : '\n']
}

function endingAt(text: string, lineFeed: number): string {
  return lineFeed > 0 && text[lineFeed - 1] === '\r' ? '\r\n' : '\n'
}

function joinWithEndings(lines: string[], endings: string[]): string {
  let out = lines[0]!
  for (let index = 1; index < lines.length; index++) {
    out += (endings[index - 1] ?? endings[endings.length - 1]!) + lines[index]!
  }
  return out
}

function countBreaks(text: string, from: number, to: number): number {
  let count = 0
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) {
    count++
  }
  return count
}

/** Start of the line holding `index`, moved back `lines` more lines. */
function lineStart(text: string, index: number, lines: number): number {
  let start = index <= 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1
  for (let step = 0; step < lines && start > 0; step++) {
    start = start - 1 <= 0 ? 0 : text.lastIndexOf('\n', start - 2) + 1
  }
  return start
}

/** End (after its line break) of the line holding the range ending at `end`, plus `lines` lines. */
function lineEnd(text: string, end: number, lines: number): number {
  let stop = end > 0 && text[end - 1] === '\n' ? end : nextLineEnd(text, end)
  for (let step = 0; step < lines && stop < text.length; step++) stop = nextLineEnd(text, stop)
  return stop
}

function nextLineEnd(text: string, from: number): number {
  const at = text.indexOf('\n', from)
  return at === -1 ? text.length : at + 1
}

/** The whole texts when small, else the lines around the replacements with some context. */
function buildExcerpt(before: string, matches: readonly TextMatch[]): FsTextExcerpt {
  let delta = 0
  for (const match of matches) delta += match.replacement.length - (match.end - match.start)
  if (before.length <= EDIT_EXCERPT_WHOLE_MAX && before.length + delta <= EDIT_EXCERPT_WHOLE_MAX) {
    return {
      startLine: 1,
      oldText: before,
      newText: spliceText(before, matches, 0, before.length),
      whole: true,
    }
  }
  const from = lineStart(before, matches[0]!.start, EXCERPT_CONTEXT_LINES)
  let count = matches.length
  let to = lineEnd(before, matches[count - 1]!.end, EXCERPT_CONTEXT_LINES)
  if (to - from > EXCERPT_SPAN_MAX) {
    count = 1
    to = lineEnd(before, matches[0]!.end, EXCERPT_CONTEXT_LINES)
    while (count < matches.length && matches[count]!.start < to) {
      to = Math.max(to, lineEnd(before, matches[count]!.end, EXCERPT_CONTEXT_LINES))
      count++
    }
  }
  return {
    startLine: countBreaks(before, 0, from) + 1,
    oldText: detach(before.slice(from, to)),
    newText: spliceText(before, matches, from, to, count),
    whole: false,
  }
}

/**
 * A flat copy of a slice: a slice of a large string may share (and so keep alive) the whole
 * file's text, and an excerpt outlives the edit. Joining two parts builds a new string.
 */
function detach(slice: string): string {
  return slice.length < 2 ? slice : [slice.slice(0, 1), slice.slice(1)].join('')
}
