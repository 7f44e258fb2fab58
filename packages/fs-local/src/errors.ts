// Turns a Node error from the disk into the FsError the seam promises, so no raw Node error
// (EACCES, EISDIR, ENOSPC…) escapes the provider. The message names the path, what was wrong
// and what to do; the Node code stays in the message and the original error is the `cause`.
// ENOTDIR (a parent component is a file) maps to FS_NOT_FOUND: such a path cannot exist.
import { FsError } from '@deepseek-ai/dsh-fs'
import {
  notFoundError,
  notRegularFileError,
  parentNotDirectoryError,
} from '@deepseek-ai/dsh-fs/provider'

/** The Node error's code (`ENOENT`, `EACCES`…), when it has one. */
export function nodeCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}

function nodeMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The FsError for `error` met while working on `path`; an FsError passes through. */
export function toFsError(error: unknown, path: string): FsError {
  if (error instanceof FsError) return error
  const code = nodeCode(error)
  switch (code) {
    case 'ENOENT':
      return notFoundError(path, error)
    case 'ENOTDIR':
      return parentNotDirectoryError(path, error)
    case 'EISDIR':
      return notRegularFileError(path, 'a directory', error)
    case 'EACCES':
    case 'EPERM':
      return new FsError(
        'FS_PERMISSION_DENIED',
        `Permission denied for ${path} (${code}): this process may not access it. Choose another path, or change the file's or its folder's permissions.`,
        { path, cause: error, details: { osCode: code } },
      )
    case 'EROFS':
      return new FsError(
        'FS_PERMISSION_DENIED',
        `${path} is on a read-only file system (EROFS), so it cannot be changed. Choose a path on a writable disk.`,
        { path, cause: error, details: { osCode: code } },
      )
    case 'ENOSPC':
    case 'EDQUOT':
      return new FsError(
        'FS_IO',
        `The disk is full (${code}) while writing ${path}; the file was left as it was. Free some space, then retry.`,
        { path, cause: error, details: { osCode: code } },
      )
    case 'ELOOP':
      return new FsError(
        'FS_IO',
        `${path} goes through a loop of symbolic links (ELOOP). Fix the links or use the real path.`,
        { path, cause: error, details: { osCode: code } },
      )
    case 'ABORT_ERR':
      return new FsError('FS_ABORTED', `The operation on ${path} was cancelled.`, {
        path,
        cause: error,
      })
    default:
      return new FsError(
        'FS_IO',
        `The disk reported an error for ${path} (${code ?? 'no error code'}): ${nodeMessage(error)}. Retry; if it persists, check the disk and the path.`,
        { path, cause: error, details: code === undefined ? {} : { osCode: code } },
      )
  }
}

/** True when `error` is a Node error with one of `codes`. */
export function hasNodeCode(error: unknown, ...codes: string[]): boolean {
  const code = nodeCode(error)
  return code !== undefined && codes.includes(code)
}
