// ImageError: why read_image refused a file, each message saying what to do. The file system's
// own failures (not found, not a regular file, denied) stay FsErrors.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const IMAGE_ERROR_CODES = [
  /** The file's bytes are not a PNG, JPEG, GIF or WebP image. */
  'IMAGE_UNSUPPORTED_TYPE',
  /** The file is larger than the tool sends. */
  'IMAGE_TOO_LARGE',
  /** The file is empty. */
  'IMAGE_EMPTY',
] as const

export type ImageErrorCode = (typeof IMAGE_ERROR_CODES)[number]

export class ImageError extends codedError('ImageError', IMAGE_ERROR_CODES) {}

/** True for an ImageError (of `code`, when given). */
export const isImageError = guardOf(ImageError)
