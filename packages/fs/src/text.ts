// The text rule every provider shares: UTF-8 only; a NUL byte or invalid UTF-8 means the file
// is not text (FS_NOT_TEXT); a leading UTF-8 byte-order mark is hidden from the text and kept
// by whoever rewrites the file. Pure functions over bytes, no I/O, so the in-memory fake, the
// disk provider and any later provider decide "is this text" the same way.
import { Buffer, isUtf8 } from 'node:buffer'
import { notTextError } from './failures'

const BOM = Uint8Array.of(0xef, 0xbb, 0xbf)

/** True when the bytes start with the UTF-8 byte-order mark. */
export function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]
}

/** Decodes a whole file: its text without the BOM, and whether it had one. */
export function decodeText(bytes: Uint8Array, path?: string): { text: string; bom: boolean } {
  const bom = hasUtf8Bom(bytes)
  return { text: decodeWhole(bytes.subarray(bom ? BOM.length : 0), path), bom }
}

/**
 * Decodes complete UTF-8 (no character cut at either end) in one shot: a NUL byte or an
 * invalid sequence fails. One-shot decoding is several times faster than a streaming decoder.
 */
function decodeWhole(bytes: Uint8Array, path: string | undefined): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.indexOf(0) !== -1) throw notTextError(path, 'nul')
  if (!isUtf8(buffer)) throw notTextError(path, 'invalid-utf8')
  return buffer.toString('utf8')
}

/** Encodes text as UTF-8, with the byte-order mark in front when `bom` is set. */
export function encodeText(text: string, bom = false): Uint8Array {
  const body = new TextEncoder().encode(text)
  // Text that already starts with U+FEFF carries its own mark: never write two.
  if (!bom || text.startsWith('\uFEFF')) return body
  const bytes = new Uint8Array(body.length + BOM.length)
  bytes.set(BOM, 0)
  bytes.set(body, BOM.length)
  return bytes
}

/** How many bytes the character starting with `lead` has (1 for a byte that starts none). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4
  if (lead >= 0xe0) return 3
  if (lead >= 0xc0) return 2
  return 1
}

/** Where the incomplete character at the end of `bytes` starts, or its length when none is cut. */
function completeLength(bytes: Uint8Array): number {
  const length = bytes.length
  let at = length - 1
  while (at >= 0 && at > length - 4 && (bytes[at]! & 0xc0) === 0x80) at--
  if (at < 0) return length
  const lead = bytes[at]!
  return lead >= 0xc0 && length - at < sequenceLength(lead) ? at : length
}

/**
 * Decodes a file chunk by chunk with the same rule as `decodeText`: a character split across
 * two chunks is joined, a NUL byte or invalid sequence in any chunk fails, and the leading BOM
 * is dropped. Call `end()` after the last chunk (a truncated character fails there). Chunks
 * may be views of a reused buffer: the decoder copies the few bytes it holds back.
 */
export class TextChunkDecoder {
  /** The start of a character cut at the end of the last chunk (at most 3 bytes). */
  private pending: Uint8Array = new Uint8Array(0)
  private started = false

  constructor(private readonly path?: string) {}

  push(bytes: Uint8Array): string {
    let rest = bytes
    let head = ''
    if (this.pending.length > 0) {
      const missing = sequenceLength(this.pending[0]!) - this.pending.length
      const joined = new Uint8Array(this.pending.length + Math.min(missing, rest.length))
      joined.set(this.pending, 0)
      joined.set(rest.subarray(0, missing), this.pending.length)
      rest = rest.subarray(missing)
      if (joined.length < this.pending.length + missing) {
        this.pending = joined
        return ''
      }
      this.pending = new Uint8Array(0)
      head = decodeWhole(joined, this.path)
    }
    const cut = completeLength(rest)
    if (cut < rest.length) this.pending = rest.slice(cut)
    return this.start(head + decodeWhole(rest.subarray(0, cut), this.path))
  }

  end(): string {
    if (this.pending.length > 0) {
      throw notTextError(this.path, 'invalid-utf8')
    }
    return ''
  }

  /** Drops the BOM from the first characters of the file. */
  private start(text: string): string {
    if (this.started || text === '') return text
    this.started = true
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  }
}
