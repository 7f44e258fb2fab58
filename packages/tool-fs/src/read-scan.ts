// The byte scanner that finds a read window in a file: push byte chunks, get a ReadWindow.
// Pure and Cordis-free. It decodes only the lines of the window; every other byte is only
// searched for newlines (in bulk, newline-count.ts) and NUL, so a window costs what it reads
// and memory stays bounded whatever the file or line size.
import { notTextError } from '@deepseek-ai/dsh-fs/provider'
import { NewlineFinder } from './newline-count'
import {
  LINE_TRUNCATED_SUFFIX,
  READ_MAX_LINE_CHARS,
  READ_MAX_LINES,
  READ_MAX_OUTPUT_BYTES,
  cutText,
} from './read-render'
import type { ReadWindow } from './read-render'

/** Bytes of a long line kept to decode its first READ_MAX_LINE_CHARS code units. */
const LINE_KEEP_BYTES = READ_MAX_LINE_CHARS * 4
const NEWLINE = 0x0a
const CR = 0x0d

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
  private readonly finder = new NewlineFinder()
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

  /**
   * Buffers for a provider to read the chunks into (FsStreamBytesOptions.into): chunks there
   * are searched where they lie, not copied. `undefined` without the WebAssembly routine.
   */
  arena(): [Uint8Array, Uint8Array] | undefined {
    return this.finder.arena()
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
    this.finder.release()
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
    if (this.finder.nulIndex(buf) !== -1) throw notTextError(undefined, 'nul')
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
    let open = false // bytes remain after the last newline counted
    while (line < until) {
      const next = mark === -1 ? until : Math.min(mark, until)
      const at = this.finder.find(buf, i, next - line)
      if (at < 0) {
        line += -1 - at
        open = i < buf.length && buf[buf.length - 1] !== NEWLINE
        break
      }
      line = next
      i = at + 1
      if (line === mark) {
        mark += every
        onLineStart?.(line, base + i)
      }
    }
    if (line !== this.line) this.partial = false
    this.line = line
    if (line < until) {
      if (open) this.partial = true
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
      throw notTextError(undefined, 'invalid-utf8')
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
