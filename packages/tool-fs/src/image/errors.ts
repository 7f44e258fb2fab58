// ImageError: why read_image refused a file, each message saying what to do. The file system's
// own failures (not found, not a regular file, denied) stay FsErrors.

export const IMAGE_ERROR_CODES = [
  /** The file's bytes are not a PNG, JPEG, GIF or WebP image. */
  'IMAGE_UNSUPPORTED_TYPE',
  /** The file is larger than the tool sends. */
  'IMAGE_TOO_LARGE',
  /** The file is empty. */
  'IMAGE_EMPTY',
] as const

export type ImageErrorCode = (typeof IMAGE_ERROR_CODES)[number]

export class ImageError extends Error {
  override readonly name = 'ImageError'
  readonly code: ImageErrorCode

  constructor(code: ImageErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

export function isImageError(value: unknown): value is ImageError {
  return value instanceof ImageError
}
