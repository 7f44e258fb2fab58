// An image's type told by its first bytes (its magic), never by its file name: PNG, JPEG, GIF
// and WebP, the types the models that take images accept. Pure.

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'

/** Bytes enough to tell the four types apart. */
export const SNIFF_BYTES = 12

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false
  return signature.every((byte, index) => bytes[at + index] === byte)
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0))

/** The image type of `bytes` (the file's start), or undefined when it is none of the four. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  return undefined
}

/** `PNG`, `JPEG`, … for a card or a message. */
export function imageTypeName(type: ImageType): string {
  return type.slice('image/'.length).toUpperCase()
}
