// The bytes of an edited file as pieces: the runs of the original bytes between the matches,
// and each replacement encoded. A provider writes them one after another, so an edit never
// re-encodes the whole file nor holds a second whole copy of it, and every byte outside the
// matches is the file's own (its BOM, its line endings). Pure: no I/O.
import { Buffer } from 'node:buffer'
import type { TextMatch } from './edit'

const BOM_BYTES = 3

/**
 * The edited file: `bytes` is the file, `text` its decoded text (without the BOM, which
 * `bom` says is there), `matches` the plan's matches over `text` in order. The pieces are
 * views of `bytes` and fresh encodings of the replacements.
 */
export function editedBytePieces(
  bytes: Uint8Array,
  text: string,
  matches: readonly TextMatch[],
  bom: boolean,
): Uint8Array[] {
  const encoded = new Map<string, Uint8Array>()
  const pieces: Uint8Array[] = []
  let byte = bom ? BOM_BYTES : 0
  let runStart = 0
  let cursor = 0
  for (const match of matches) {
    byte += utf8Length(text, cursor, match.start)
    if (byte > runStart) pieces.push(bytes.subarray(runStart, byte))
    let replacement = encoded.get(match.replacement)
    if (replacement === undefined) {
      replacement = Buffer.from(match.replacement, 'utf8')
      encoded.set(match.replacement, replacement)
    }
    if (replacement.length > 0) pieces.push(replacement)
    byte += utf8Length(text, match.start, match.end)
    runStart = byte
    cursor = match.end
  }
  if (bytes.length > runStart) pieces.push(bytes.subarray(runStart))
  return pieces
}

/** UTF-8 length of `text[from, to)` (the text is whole characters there: no lone halves). */
function utf8Length(text: string, from: number, to: number): number {
  return to > from ? Buffer.byteLength(text.slice(from, to), 'utf8') : 0
}
