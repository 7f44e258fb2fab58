// The read tool's model-facing output, and the byte scanner that finds a line window in a file.
// Pure and Cordis-free (no ctx.fs either): it works on byte chunks and strings, so it can be
// unit-tested and benchmarked alone. The scanner decodes only the lines of the window; every
// other byte is only searched for newlines (and NUL), so a window costs what it reads and
// memory stays bounded whatever the file or line size.

/** Lines shown by default, and the most one read may show. */
export const READ_MAX_LINES = 2000
/** A longer line is cut to this many UTF-16 code units (a surrogate pair is never split). */
export const READ_MAX_LINE_CHARS = 2000
/** The rendered window (`N: text` lines, UTF-8) never exceeds this many bytes. */
export const READ_MAX_OUTPUT_BYTES = 50 * 1024
export const LINE_TRUNCATED_SUFFIX = `... (line truncated to ${READ_MAX_LINE_CHARS} chars)`

/** Bytes of a long line kept to decode its first READ_MAX_LINE_CHARS code units. */
const LINE_KEEP_BYTES = READ_MAX_LINE_CHARS * 4
const NEWLINE = 0x0a
const CR = 0x0d

/** The lines a read shows and what is known about the rest of the file. */
export interface ReadWindow {
  /** 1-based number of the first line asked for. */
  startLine: number
  /** Display text of each shown line (CR stripped, long lines cut). */
  lines: string[]
  /** Lines in the whole file; unknown only when the output was capped early. */
  totalLines?: number
  /** True when the 50 KiB cap stopped the window before its limit. */
  capped: boolean
  /** True when the scan went to the end of the file (so `totalLines` was counted). */
  reachedEnd: boolean
}

/** The bytes are not UTF-8 text: a NUL byte, or invalid UTF-8 inside the window. */
export class ReadTextError extends Error {
  override readonly name = 'ReadTextError'
  constructor(readonly reason: 'nul' | 'invalid-utf8') {
    super(reason === 'nul' ? 'the file contains NUL bytes' : 'the file is not valid UTF-8')
  }
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
  const total = window.totalLines ?? last
  if (last < total) {
    return `(Showing lines ${first}-${last} of ${total}. Use offset=${last + 1} to continue.)`
  }
  return `(End of file - total ${formatLineCount(total)})`
}

/** The whole model-facing output of a read. An empty file shows only the footer. */
export function renderReadOutput(path: string, window: ReadWindow): string {
  const numbered = window.lines.map((text, i) => `${window.startLine + i}: ${text}`)
  const body = numbered.length > 0 ? `${numbered.join('\n')}\n\n` : ''
  return `<path>${path}</path>\n<type>file</type>\n<content>\n${body}${formatReadFooter(window)}\n</content>`
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

export interface ReadScanOptions {
  /** 1-based first line of the window. */
  offset: number
  /** Most lines to show (at most READ_MAX_LINES). */
  limit: number
  /** Number of the line the first pushed byte starts (default 1, from an index entry). */
  firstLine?: number
  /** File offset of the first pushed byte (default 0). */
  firstByte?: number
  /** Strip a UTF-8 BOM at the first bytes (default: when `firstByte` is 0). */
  stripBom?: boolean
  /** Total lines when already known: the scan stops as soon as the window is complete. */
  knownTotal?: number
  /** Report the start of every line `1 + m * indexEvery` (m ≥ 1) to `onLineStart`. */
  indexEvery?: number
  onLineStart?: (line: number, byte: number) => void
}

/**
 * Streaming line splitter: push byte chunks (any split, inside a line or a character) until
 * `push` returns false or the input ends, then `finish()`. Lines before the window are only
 * counted; a window line keeps at most LINE_KEEP_BYTES; after the window the rest is only
 * counted (or not read at all when the total is known or the output is capped).
 */
export class ReadWindowScanner {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  private readonly windowEnd: number
  private readonly lines: string[] = []
  private line: number
  private pos: number
  private head: Uint8Array | undefined
  private partial = false
  private pieces: Uint8Array[] = []
  private kept = 0
  private overflow = false
  private outputBytes = 0
  private windowClosed = false
  private capped = false
  private done = false

  constructor(private readonly options: ReadScanOptions) {
    this.windowEnd = options.offset + Math.min(options.limit, READ_MAX_LINES) - 1
    this.line = options.firstLine ?? 1
    this.pos = options.firstByte ?? 0
    this.head = (options.stripBom ?? this.pos === 0) ? new Uint8Array(0) : undefined
  }

  /** Feeds the next chunk; false when the scanner needs no more input. */
  push(chunk: Uint8Array): boolean {
    if (this.done) return false
    let bytes = chunk
    if (this.head !== undefined) {
      bytes = concat([this.head, chunk])
      if (bytes.length < 3) {
        this.head = bytes
        return true
      }
      this.head = undefined
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        bytes = bytes.subarray(3)
        this.pos += 3
      }
    }
    this.scan(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    return !this.done
  }

  /** Ends the scan (at the end of the input, or after `push` returned false). */
  finish(): ReadWindow {
    if (!this.done) {
      if (this.head !== undefined && this.head.length > 0) {
        const rest = this.head
        this.head = undefined
        this.scan(Buffer.from(rest.buffer, rest.byteOffset, rest.byteLength))
      }
    }
    const reachedEnd = !this.done
    if (reachedEnd && this.partial) {
      if (this.isCollecting()) this.endWindowLine(false)
      else this.line++
    }
    return {
      startLine: this.options.offset,
      lines: this.lines,
      totalLines: reachedEnd ? this.line - 1 : this.options.knownTotal,
      capped: this.capped,
      reachedEnd,
    }
  }

  private isCollecting(): boolean {
    return !this.windowClosed && this.line >= this.options.offset
  }

  private scan(buf: Buffer): void {
    if (buf.indexOf(0) !== -1) throw new ReadTextError('nul')
    const base = this.pos
    let i = 0
    while (i < buf.length && !this.done) {
      i = this.isCollecting() ? this.collect(buf, i, base) : this.skip(buf, i, base)
    }
    this.pos = base + buf.length
  }

  /** Counts whole lines up to the window (or to the end); returns where it stopped. */
  private skip(buf: Buffer, from: number, base: number): number {
    const until = this.windowClosed ? Infinity : this.options.offset
    const every = this.options.indexEvery ?? 0
    const onLineStart = this.options.onLineStart
    let line = this.line
    // The next line whose start is reported: lines 1 + m * every.
    let mark = every > 0 && onLineStart !== undefined ? line - ((line - 1) % every) + every : -1
    let i = from
    while (line < until) {
      const nl = buf.indexOf(NEWLINE, i)
      if (nl === -1) break
      i = nl + 1
      if (++line === mark) {
        mark += every
        onLineStart?.(line, base + i)
      }
    }
    if (line !== this.line) this.partial = false
    this.line = line
    if (line < until) {
      if (i < buf.length) this.partial = true
      return buf.length
    }
    return i
  }

  /** Keeps (part of) one window line; returns where it stopped. */
  private collect(buf: Buffer, from: number, base: number): number {
    const nl = buf.indexOf(NEWLINE, from)
    const end = nl === -1 ? buf.length : nl
    if (end > from) {
      this.partial = true
      const room = LINE_KEEP_BYTES - this.kept
      if (end - from > room) this.overflow = true
      const take = Math.min(room, end - from)
      if (take > 0) {
        this.pieces.push(Uint8Array.from(buf.subarray(from, from + take)))
        this.kept += take
      }
    }
    if (nl === -1) return buf.length
    if (!this.endWindowLine(true)) return buf.length
    const every = this.options.indexEvery ?? 0
    if (every > 0 && (this.line - 1) % every === 0)
      this.options.onLineStart?.(this.line, base + nl + 1)
    return nl + 1
  }

  /** Decodes and shows the current line; false when the output cap refused it. */
  private endWindowLine(hadNewline: boolean): boolean {
    let bytes = concat(this.pieces)
    const overflow = this.overflow
    this.pieces = []
    this.kept = 0
    this.overflow = false
    this.partial = false
    if (hadNewline && !overflow && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, -1)
    const text = this.decodeLine(bytes, overflow)
    const cut = overflow || text.length > READ_MAX_LINE_CHARS
    const shown = cut ? cutText(text, READ_MAX_LINE_CHARS) + LINE_TRUNCATED_SUFFIX : text
    const size = Buffer.byteLength(`${this.line}: ${shown}\n`)
    if (this.lines.length > 0 && this.outputBytes + size > READ_MAX_OUTPUT_BYTES) {
      this.capped = true
      this.windowClosed = true
      this.done = true
      return false
    }
    this.lines.push(shown)
    this.outputBytes += size
    this.line++
    if (this.line > this.windowEnd) {
      this.windowClosed = true
      if (this.options.knownTotal !== undefined) this.done = true
    }
    return true
  }

  private decodeLine(bytes: Uint8Array, prefixOnly: boolean): string {
    try {
      if (!prefixOnly) return this.decoder.decode(bytes)
      // A prefix may end inside a character: the streaming decode holds those bytes back.
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, {
        stream: true,
      })
    } catch {
      throw new ReadTextError('invalid-utf8')
    }
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
