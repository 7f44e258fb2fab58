// The text rule every provider shares: UTF-8 only; a NUL byte or invalid UTF-8 means the file
// is not text (FS_NOT_TEXT); a leading UTF-8 byte-order mark is hidden from the text and kept
// by whoever rewrites the file. Pure functions over bytes, no I/O, so the in-memory fake, the
// disk provider and any later provider decide "is this text" the same way.
import { FsError } from './errors'

const BOM = Uint8Array.of(0xef, 0xbb, 0xbf)

/** True when the bytes start with the UTF-8 byte-order mark. */
export function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]
}

function notText(path: string | undefined, reason: string, cause?: unknown): FsError {
  const name = path ?? 'The file'
  return new FsError(
    'FS_NOT_TEXT',
    `${name} is not a UTF-8 text file (${reason}); it cannot be read or edited as text.`,
    { path, cause },
  )
}

/** Decodes a whole file: its text without the BOM, and whether it had one. */
export function decodeText(bytes: Uint8Array, path?: string): { text: string; bom: boolean } {
  const decoder = new TextChunkDecoder(path)
  const text = decoder.push(bytes) + decoder.end()
  return { text, bom: hasUtf8Bom(bytes) }
}

/** Encodes text as UTF-8, with the byte-order mark in front when `bom` is set. */
export function encodeText(text: string, bom = false): Uint8Array {
  const body = new TextEncoder().encode(text)
  if (!bom) return body
  const bytes = new Uint8Array(body.length + BOM.length)
  bytes.set(BOM, 0)
  bytes.set(body, BOM.length)
  return bytes
}

/**
 * Decodes a file chunk by chunk with the same rule as `decodeText`: a character split across
 * two chunks is joined, a NUL byte or invalid sequence in any chunk fails, and the leading BOM
 * is dropped. Call `end()` after the last chunk (a truncated character fails there).
 */
export class TextChunkDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true })

  constructor(private readonly path?: string) {}

  push(bytes: Uint8Array): string {
    if (bytes.includes(0)) throw notText(this.path, 'it contains a NUL byte, so it looks binary')
    return this.decode(bytes, true)
  }

  end(): string {
    return this.decode(undefined, false)
  }

  private decode(bytes: Uint8Array | undefined, stream: boolean): string {
    try {
      return this.decoder.decode(bytes, { stream })
    } catch (error) {
      throw notText(this.path, 'it contains bytes that are not valid UTF-8', error)
    }
  }
}
