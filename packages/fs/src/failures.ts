// The FsErrors every provider raises for the same situations, with one wording: what was
// wrong and what to do next. Providers build their errors here so a model sees the same
// message whichever provider stands behind ctx.fs. Pure values, no I/O.
import { FsError } from './errors'

export function notFoundError(path: string, cause?: unknown): FsError {
  return new FsError(
    'FS_NOT_FOUND',
    `${path} does not exist. Check the path (relative paths resolve against the workspace) or create the file with a write.`,
    { path, cause },
  )
}

/** A path that cannot exist because one of its parent components is a file. */
export function parentNotDirectoryError(path: string, cause?: unknown): FsError {
  return new FsError(
    'FS_NOT_FOUND',
    `${path} cannot exist: a parent component of the path is a file, not a directory. Choose a path whose parent folders are directories.`,
    { path, cause },
  )
}

export function notRegularFileError(path: string, what: string, cause?: unknown): FsError {
  return new FsError(
    'FS_NOT_REGULAR_FILE',
    `${path} is ${what}, not a regular file. Only regular files can be read, written or edited; give the path of a file.`,
    { path, cause },
  )
}

export function staleVersionError(path: string): FsError {
  return new FsError(
    'FS_STALE_VERSION',
    `${path} has changed since it was last read. Read it again, then retry with its current content.`,
    { path },
  )
}

export function notObservedError(path: string): FsError {
  return new FsError(
    'FS_NOT_OBSERVED',
    `${path} already exists and has not been read. Read it first, then write or edit it.`,
    { path },
  )
}

export function tooLargeError(path: string, size: number, limit: number): FsError {
  return new FsError(
    'FS_TOO_LARGE',
    `${path} is ${size} bytes, over the ${limit}-byte limit for editing, so it is not loaded. Change it another way (for example with a shell command), or raise the provider's edit limit.`,
    { path },
  )
}
