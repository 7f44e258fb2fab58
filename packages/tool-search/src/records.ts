// Parsers of ripgrep's output, fed chunk by chunk as it arrives. Every mode runs with `--null`,
// so a path ends at a NUL byte and can hold any other character (a newline, a colon):
// - lists (`--files`, `--files-with-matches`): `path\0` each;
// - counts (`--count`): `path\0N\n`;
// - lines (`--line-number --with-filename --no-heading`): `path\0N:text\n` for a matching line,
//   `path\0N-text\n` for a context line, and `--\n` between groups, which is dropped (the
//   formatter puts separators back by its own rule).
// In counts and lines, a line with no NUL before its newline is not a record (a separator, or
// ripgrep's note that it stopped at a binary file) and is skipped; so a path holding a
// newline cannot be told apart there (lists have no such lines and keep it).
// Bytes are decoded as UTF-8 with U+FFFD for what is not (a Latin-1 file, a bad path); a CR
// before the newline is dropped. Each `push` returns false once its consumer had enough.
// Pure: no I/O.

export interface LineRecord {
  path: string
  line: number
  /** True for a matching line, false for a context line. */
  match: boolean
  text: string
}

const NUL = 0
const NEWLINE = 10
const CR = 13
const decoder = new TextDecoder('utf-8')
const pathDecoder = new TextDecoder('utf-8', { ignoreBOM: true })

abstract class ChunkParser {
  private rest: Buffer | undefined

  /** Feeds a chunk; false once the consumer wants nothing more. */
  push(chunk: Buffer): boolean {
    const data = this.rest === undefined ? chunk : Buffer.concat([this.rest, chunk])
    this.rest = undefined
    let at = 0
    for (;;) {
      const next = this.parse(data, at)
      if (next === false) return false
      if (next === undefined) break
      at = next
    }
    if (at < data.length) this.rest = data.subarray(at)
    return true
  }

  /** Parses one record at `at`: the index after it, undefined when incomplete, false to stop. */
  protected abstract parse(data: Buffer, at: number): number | undefined | false
}

/**
 * `path\0` records. A list is the bulk of what glob reads (thousands of paths), so each chunk
 * is decoded once up to its last NUL and split, rather than decoded path by path. A NUL never
 * ends a UTF-8 sequence, so the result is the same; a leading BOM is kept (it is the name's).
 */
export class PathListParser {
  private rest: Buffer | undefined

  constructor(private readonly onPath: (path: string) => boolean) {}

  /** Feeds a chunk; false once the consumer wants nothing more. */
  push(chunk: Buffer): boolean {
    const data = this.rest === undefined ? chunk : Buffer.concat([this.rest, chunk])
    const last = data.lastIndexOf(NUL)
    this.rest = last + 1 < data.length ? data.subarray(last + 1) : undefined
    if (last === -1) return true
    const paths = pathDecoder.decode(data.subarray(0, last)).split('\0')
    for (const path of paths) if (!this.onPath(path)) return false
    return true
  }
}

/** `path\0N\n` records. */
export class CountParser extends ChunkParser {
  constructor(private readonly onCount: (path: string, count: number) => boolean) {
    super()
  }

  protected parse(data: Buffer, at: number): number | undefined | false {
    const nul = data.indexOf(NUL, at)
    const newline = data.indexOf(NEWLINE, at)
    if (newline !== -1 && (nul === -1 || newline < nul)) return newline + 1
    if (nul === -1) return undefined
    const end = data.indexOf(NEWLINE, nul)
    if (end === -1) return undefined
    const count = Number(data.toString('latin1', nul + 1, end))
    return this.onCount(decoder.decode(data.subarray(at, nul)), count) ? end + 1 : false
  }
}

/** `path\0N:text\n` / `path\0N-text\n` records; other lines are skipped. */
export class LineParser extends ChunkParser {
  constructor(private readonly onLine: (record: LineRecord) => boolean) {
    super()
  }

  protected parse(data: Buffer, at: number): number | undefined | false {
    const nul = data.indexOf(NUL, at)
    const newline = data.indexOf(NEWLINE, at)
    if (newline !== -1 && (nul === -1 || newline < nul)) return newline + 1
    if (nul === -1) return undefined
    const end = data.indexOf(NEWLINE, nul)
    if (end === -1) return undefined
    let digits = nul + 1
    let line = 0
    while (digits < end && data[digits]! >= 0x30 && data[digits]! <= 0x39) {
      line = line * 10 + data[digits]! - 0x30
      digits++
    }
    const textEnd = end > digits + 1 && data[end - 1] === CR ? end - 1 : end
    const record: LineRecord = {
      path: decoder.decode(data.subarray(at, nul)),
      line,
      match: data[digits] === 0x3a,
      text: decoder.decode(data.subarray(digits + 1, textEnd)),
    }
    return this.onLine(record) ? end + 1 : false
  }
}
