// FsError: the one error type every ctx.fs provider reports (a raw Node error never escapes)
// and the file tools report for the files they work on. Its message is neutral, in the seam's
// vocabulary (`oldString`, `replaceAll`), for API users; `details` carries the facts a caller
// needs to word it its own way (tool-fs words it for a model, keyed by code).

export const FS_ERROR_CODES = [
  /** Nothing at the path, or a parent component is a file (the path cannot exist). */
  'FS_NOT_FOUND',
  /** The file has a NUL byte or invalid UTF-8 (`details.reason`). */
  'FS_NOT_TEXT',
  /** The path is a directory, FIFO, socket or device (`details.what`). */
  'FS_NOT_REGULAR_FILE',
  /** The file changed since the version the caller holds. */
  'FS_STALE_VERSION',
  /** A write or edit met an existing file the caller never observed (`details.operation`). */
  'FS_NOT_OBSERVED',
  /** `oldString` occurs several times and `replaceAll` is not set (`details.matches`). */
  'FS_AMBIGUOUS_EDIT',
  /** `oldString` occurs nowhere in the file. */
  'FS_EDIT_NOT_FOUND',
  /** The edit request could never change anything (`details.rule`). */
  'FS_INVALID_EDIT',
  /** A read asked for a line past the end of the file (`details.lines`, `details.offset`). */
  'FS_OFFSET_PAST_END',
  /** The call's signal fired before the change; nothing changed. */
  'FS_ABORTED',
  /**
   * The path no longer leads where it led when the call was judged (a directory on it, or the
   * file itself, was replaced by a link or moved); nothing was changed anywhere.
   */
  'FS_PATH_CHANGED',
  /** The OS refused access: permissions, a read-only file, a read-only file system. */
  'FS_PERMISSION_DENIED',
  /** The file is over the provider's limit for the operation (`details.size`, `details.limit`). */
  'FS_TOO_LARGE',
  /** Any other failure (`details.osCode` when the OS gave one). */
  'FS_IO',
] as const

export type FsErrorCode = (typeof FS_ERROR_CODES)[number]

/** The facts behind a failure, so a caller can say it in its own words. Each is optional. */
export interface FsErrorDetails {
  /** FS_AMBIGUOUS_EDIT: how many times `oldString` occurs. */
  matches?: number
  /** FS_OFFSET_PAST_END: how many lines the file has, and the line asked for. */
  lines?: number
  offset?: number
  /** FS_TOO_LARGE: the file's size and the limit, in bytes. */
  size?: number
  limit?: number
  /** FS_NOT_REGULAR_FILE: what is there instead, e.g. `a directory`, `a named pipe (FIFO)`. */
  what?: string
  /** FS_NOT_TEXT: why the bytes are not text. */
  reason?: 'nul' | 'invalid-utf8'
  /** FS_INVALID_EDIT: which rule the request broke. */
  rule?: 'empty-old-string' | 'unchanged' | 'not-a-string'
  /** FS_NOT_OBSERVED: the operation refused. */
  operation?: 'write' | 'edit'
  /** FS_NOT_OBSERVED: only some lines were observed, and the operation replaces the whole file. */
  partial?: boolean
  /** FS_IO, FS_PERMISSION_DENIED: the OS error code (`ENOSPC`, `EACCES`, …). */
  osCode?: string
}

export interface FsErrorOptions {
  /** The path the failure concerns, as the caller named it (absolute). */
  path?: string
  details?: FsErrorDetails
  cause?: unknown
}

export class FsError extends Error {
  override readonly name = 'FsError'
  readonly code: FsErrorCode
  /** The path the failure concerns, when there is one. */
  readonly path?: string
  readonly details: FsErrorDetails

  constructor(code: FsErrorCode, message: string, options: FsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.path = options.path
    this.details = options.details ?? {}
  }
}

/** True for an FsError (of `code`, when given). */
export function isFsError(value: unknown, code?: FsErrorCode): value is FsError {
  return value instanceof FsError && (code === undefined || value.code === code)
}
