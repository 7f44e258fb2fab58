// The read tool's model-facing output: limits, footers, the rendered window, the offset error.
// Pure and Cordis-free (no ctx.fs either), so it can be unit-tested and reused alone. The byte
// scanner that finds a window in a file is read-scan.ts, which builds on this module.

/** Lines shown by default, and the most one read may show. */
export const READ_MAX_LINES = 2000
/** A longer line is cut to this many UTF-16 code units (a surrogate pair is never split). */
export const READ_MAX_LINE_CHARS = 2000
/** The rendered window (`N: text` lines, UTF-8) never exceeds this many bytes. */
export const READ_MAX_OUTPUT_BYTES = 50 * 1024
export const LINE_TRUNCATED_SUFFIX = `... (line truncated to ${READ_MAX_LINE_CHARS} chars)`

/** The lines a read shows and what is known about the rest of the file. */
export interface ReadWindow {
  /** 1-based number of the first line asked for. */
  startLine: number
  /** Display text of each shown line (CR stripped, long lines cut). */
  lines: string[]
  /**
   * Lines in the whole file; unknown when the output was capped early, or when only the
   * window's lines were read (then `reachedEnd` is false: the file goes on).
   */
  totalLines?: number
  /** True when the 50 KiB cap stopped the window before its limit. */
  capped: boolean
  /** True when the scan went to the end of the file (so `totalLines` was counted). */
  reachedEnd: boolean
}

/**
 * The window of a whole text (a small file read with `readText`: no BOM, no NUL, valid
 * text), by the byte scanner's rules (read-scan.ts): lines split at `\n`, a line's `\r` before
 * its `\n` dropped, long lines cut, the output capped at READ_MAX_OUTPUT_BYTES (then the total
 * is not counted), the rest of the file counted. Works on the string, so a small read never
 * encodes its text back into bytes.
 */
export function textWindow(text: string, offset: number, limit: number): ReadWindow {
  const last = offset + Math.min(limit, READ_MAX_LINES) - 1
  // All ASCII (most source code): a line's UTF-8 size is its length, no need to measure it.
  const ascii = Buffer.byteLength(text) === text.length
  const lines: string[] = []
  let outputBytes = 0
  let line = 1
  let start = 0
  while (start < text.length) {
    const newline = text.indexOf('\n', start)
    if (line < offset || line > last) {
      if (newline === -1) return ended(offset, lines, line)
      start = newline + 1
      line++
      continue
    }
    let end = newline === -1 ? text.length : newline
    if (newline !== -1 && text.charCodeAt(end - 1) === 0x0d) end--
    const shown = showLine(text.slice(start, end))
    const bytes = ascii ? shown.length : Buffer.byteLength(shown)
    const size = bytes + String(line).length + 3 // `N: ` and `\n`
    if (lines.length > 0 && outputBytes + size > READ_MAX_OUTPUT_BYTES) {
      return { startLine: offset, lines, capped: true, reachedEnd: false }
    }
    lines.push(shown)
    outputBytes += size
    if (newline === -1) return ended(offset, lines, line)
    start = newline + 1
    line++
  }
  return ended(offset, lines, line - 1)
}

/** A window that reached the end of a text of `total` lines. */
function ended(startLine: number, lines: string[], total: number): ReadWindow {
  return { startLine, lines, totalLines: total, capped: false, reachedEnd: true }
}

/** A line as shown: cut to READ_MAX_LINE_CHARS with the truncation suffix. */
function showLine(text: string): string {
  if (text.length <= READ_MAX_LINE_CHARS) return text
  return cutText(text, READ_MAX_LINE_CHARS) + LINE_TRUNCATED_SUFFIX
}

/** `1 line`, `2 lines`. */
export function formatLineCount(count: number): string {
  return `${count} ${count === 1 ? 'line' : 'lines'}`
}

/** Lines of a text by the read tool's rule: a trailing newline adds no line; '' has 0. */
export function countTextLines(text: string): number {
  if (text === '') return 0
  let count = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++
  return text.endsWith('\n') ? count : count + 1
}

/** Cuts a string to `max` UTF-16 code units without splitting a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text
  const code = text.charCodeAt(max - 1)
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)
}

/** The footer that ends the `<content>` block. */
export function formatReadFooter(window: ReadWindow): string {
  const first = window.startLine
  const last = first + window.lines.length - 1
  if (window.capped) {
    return `(Output capped. Showing lines ${first}-${last}. Use offset=${last + 1} to continue.)`
  }
  if (window.totalLines === undefined && !window.reachedEnd) {
    // Lines read alone (a range through an editor): the file goes on, its length unknown.
    return `(Showing lines ${first}-${last}. Use offset=${last + 1} to continue.)`
  }
  const total = window.totalLines ?? last
  if (last < total) {
    return `(Showing lines ${first}-${last} of ${total}. Use offset=${last + 1} to continue.)`
  }
  return `(End of file - total ${formatLineCount(total)})`
}

/** The whole model-facing output of a read. An empty file shows only the footer. */
export function renderReadOutput(path: string, window: ReadWindow): string {
  // Joined, not concatenated: the output is then one flat string (it lives on in the
  // conversation), not a rope of pieces still holding the file's whole text.
  const parts = [`<path>${path}</path>\n<type>file</type>\n<content>\n`]
  for (let i = 0; i < window.lines.length; i++) {
    parts.push(`${window.startLine + i}: ${window.lines[i]}\n`)
  }
  if (window.lines.length > 0) parts.push('\n')
  parts.push(`${formatReadFooter(window)}\n</content>`)
  return parts.join('')
}

/** True when the window is empty because `offset` lies beyond the last line. */
export function isOffsetPastEnd(window: ReadWindow): boolean {
  return window.lines.length === 0 && !window.capped && window.startLine > 1
}

/** The error text for an offset beyond the last line. */
export function formatOffsetPastEnd(path: string, offset: number, totalLines: number): string {
  const range = totalLines > 0 ? ` Use an offset from 1 to ${totalLines}.` : ''
  return `Offset ${offset} is past the end of ${path}, which has ${formatLineCount(totalLines)}.${range}`
}
