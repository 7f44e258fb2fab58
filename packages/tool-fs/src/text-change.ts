// What a whole-file write changes, as a card shows it: both texts whole when they are small, a
// new file's first lines, else one hunk from the first to the last changed line with a few
// lines of context. The texts may be huge (a write carries the whole file), so they are
// compared and counted a slice at a time, yielding to the event loop between slices: a write
// of 100 MB never holds the process (its other sessions, its frames) for more than a few ms.
// Cordis-free; no I/O.
import { setImmediate as nextTurn } from 'node:timers/promises'
import { DIFF_CONTEXT_LINES, DIFF_WHOLE_MAX_LINES, headLines, isSmall } from './present'

/** The change shown for a write: `oldText` null for a created file; `line` 1-based. */
export interface TextChange {
  oldText: string | null
  newText: string
  /** The first changed line (1 for a created file). */
  line: number
}

/** Characters compared, or lines counted, between two turns of the event loop. */
const SLICE_CHARS = 1024 * 1024
const SLICE_LINES = 20_000

/** The change from `oldText` (null: the file is new) to `newText`. */
export async function textChange(oldText: string | null, newText: string): Promise<TextChange> {
  if (oldText === null) {
    const shown = isSmall(newText) ? newText : headLines(newText, DIFF_WHOLE_MAX_LINES)
    return { oldText: null, newText: shown, line: 1 }
  }
  const prefix = await commonPrefix(oldText, newText)
  if (isSmall(oldText) && isSmall(newText)) {
    return { oldText, newText, line: await lineAt(oldText, prefix) }
  }
  if (prefix === oldText.length && prefix === newText.length) {
    const head = headLines(oldText, DIFF_CONTEXT_LINES)
    return { oldText: head, newText: head, line: 1 }
  }
  const suffix = await commonSuffix(oldText, newText, prefix)
  // The hunk starts DIFF_CONTEXT_LINES lines before the line of the first difference (the same
  // place in both texts: they agree up to it) and ends as many lines after the line where
  // the common tail begins (the same distance past that point in both texts).
  let start = lineStart(oldText, prefix)
  for (let n = 0; n < DIFF_CONTEXT_LINES && start > 0; n++) start = lineStart(oldText, start - 1)
  const tailAt = oldText.length - suffix
  let end = lineEnd(oldText, tailAt)
  for (let n = 0; n < DIFF_CONTEXT_LINES && end < oldText.length; n++) {
    end = lineEnd(oldText, end + 1)
  }
  const newEnd = newText.length - suffix + (end - tailAt)
  return {
    oldText: oldText.slice(start, end),
    newText: newText.slice(start, newEnd),
    line: await lineAt(oldText, prefix),
  }
}

/** Lines by the read tool's rule (a trailing newline adds none; '' has 0), counted in slices. */
export async function countLines(text: string): Promise<number> {
  if (text === '') return 0
  const count = await newlinesBefore(text, text.length)
  return text.endsWith('\n') ? count : count + 1
}

/** How many characters the texts share from the start. */
async function commonPrefix(a: string, b: string): Promise<number> {
  const length = Math.min(a.length, b.length)
  for (let at = 0; at < length;) {
    const end = Math.min(length, at + SLICE_CHARS)
    if (a.slice(at, end) !== b.slice(at, end)) {
      while (a.charCodeAt(at) === b.charCodeAt(at)) at++
      return at
    }
    at = end
    if (at < length) await nextTurn()
  }
  return length
}

/** How many characters the texts share at the end, not counting into the first `prefix`. */
async function commonSuffix(a: string, b: string, prefix: number): Promise<number> {
  const length = Math.min(a.length, b.length) - prefix
  for (let done = 0; done < length;) {
    const step = Math.min(length - done, SLICE_CHARS)
    const tailA = a.slice(a.length - done - step, a.length - done)
    const tailB = b.slice(b.length - done - step, b.length - done)
    if (tailA !== tailB) {
      while (a.charCodeAt(a.length - 1 - done) === b.charCodeAt(b.length - 1 - done)) done++
      return done
    }
    done += step
    if (done < length) await nextTurn()
  }
  return length
}

/** The 1-based line of position `at`. */
async function lineAt(text: string, at: number): Promise<number> {
  return (await newlinesBefore(text, at)) + 1
}

async function newlinesBefore(text: string, at: number): Promise<number> {
  let count = 0
  for (let k = text.indexOf('\n'); k !== -1 && k < at; k = text.indexOf('\n', k + 1)) {
    if (++count % SLICE_LINES === 0) await nextTurn()
  }
  return count
}

/** Where the line holding position `at` starts. */
function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1
}

/** Where the line holding position `at` ends (its newline, or the end of the text). */
function lineEnd(text: string, at: number): number {
  const newline = text.indexOf('\n', at)
  return newline === -1 ? text.length : newline
}
