// FsError: the one error type every ctx.fs provider reports. A raw Node error never escapes.

export const FS_ERROR_CODES = [
  'FS_NOT_FOUND',
  'FS_NOT_TEXT',
  'FS_NOT_REGULAR_FILE',
  'FS_STALE_VERSION',
  'FS_NOT_OBSERVED',
  'FS_AMBIGUOUS_EDIT',
  'FS_EDIT_NOT_FOUND',
  'FS_INVALID_EDIT',
  'FS_ABORTED',
  'FS_PERMISSION_DENIED',
  'FS_TOO_LARGE',
  'FS_IO',
] as const

export type FsErrorCode = (typeof FS_ERROR_CODES)[number]

export class FsError extends Error {
  override readonly name = 'FsError'
  readonly code: FsErrorCode
  /** The path the failure concerns, when there is one. */
  readonly path?: string

  constructor(code: FsErrorCode, message: string, options?: { path?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.path = options?.path
  }
}

export function isFsError(value: unknown, code?: FsErrorCode): value is FsError {
  return value instanceof FsError && (code === undefined || value.code === code)
}

/** Throws FS_ABORTED when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, path?: string): void {
  if (signal?.aborted) throw new FsError('FS_ABORTED', 'The operation was cancelled.', { path })
}
