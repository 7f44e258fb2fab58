// The FsErrors every provider (and the policy) raises for the same situations, with one neutral
// wording in the seam's vocabulary (`oldString`, `replaceAll`) and the facts in `details`, so
// an API user gets the same message whichever provider stands behind ctx.fs. The file tools
// word these again for a model (tool-fs/src/failures.ts). Pure values, no I/O.
import { FsError } from './errors'
import type { FsErrorDetails } from './errors'

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

/** `what` says what is there instead: `a directory`, `a named pipe (FIFO)`, … */
export function notRegularFileError(path: string, what: string, cause?: unknown): FsError {
  return new FsError(
    'FS_NOT_REGULAR_FILE',
    `${path} is ${what}, not a regular file. Only regular files can be read, written or edited; give the path of a file.`,
    { path, cause, details: { what } },
  )
}

export function staleVersionError(path: string): FsError {
  return new FsError(
    'FS_STALE_VERSION',
    `${path} has changed since it was last read. Read it again, then retry with its current content.`,
    { path },
  )
}

/**
 * A change refused because the path no longer leads to the place that was judged (checked for
 * permission, or resolved by the call): a directory on it or the file itself became a link, or
 * was moved. Nothing was written.
 */
export function pathChangedError(path: string, cause?: unknown): FsError {
  return new FsError(
    'FS_PATH_CHANGED',
    `${path} no longer leads to the place that was checked: a directory on the path, or the file itself, was replaced or moved while the change waited. Nothing was changed. Check where the path leads now, then retry.`,
    { path, cause },
  )
}

/** An existing file the caller never observed: a write (createIfAbsent) or an edit refused. */
export function notObservedError(path: string, operation: 'write' | 'edit' = 'write'): FsError {
  const message =
    operation === 'write'
      ? `${path} already exists and has not been read. Read it first, then write or edit it.`
      : `${path} has not been read in this session, so it cannot be edited yet. Read it first, then edit it.`
  return new FsError('FS_NOT_OBSERVED', message, { path, details: { operation } })
}

/** A whole-file write after the caller observed only some lines of the file. */
export function partlyObservedError(path: string): FsError {
  return new FsError(
    'FS_NOT_OBSERVED',
    `Only some lines of ${path} have been read, and a write replaces the whole file. Read the whole file first, then write it.`,
    { path, details: { operation: 'write', partial: true } },
  )
}

export function tooLargeError(path: string, size: number, limit: number): FsError {
  return new FsError(
    'FS_TOO_LARGE',
    `${path} is ${size} bytes, over the ${limit}-byte limit for editing, so it is not loaded. Change it another way (for example with a shell command), or raise the provider's edit limit.`,
    { path, details: { size, limit } },
  )
}

/** The bytes are not UTF-8 text: a NUL byte, or an invalid sequence. */
export function notTextError(
  path: string | undefined,
  reason: 'nul' | 'invalid-utf8',
  cause?: unknown,
): FsError {
  const why =
    reason === 'nul'
      ? 'it contains a NUL byte, so it looks binary'
      : 'it contains bytes that are not valid UTF-8'
  return new FsError(
    'FS_NOT_TEXT',
    `${path ?? 'The file'} is not a UTF-8 text file (${why}); it cannot be read or edited as text.`,
    { path, cause, details: { reason } },
  )
}

const INVALID_EDIT: Record<NonNullable<FsErrorDetails['rule']>, string> = {
  'empty-old-string':
    'The text to replace (oldString) is empty. Give the exact text to replace; to replace a whole file, write it instead.',
  'not-a-string': 'The replacement (newString) must be a string.',
  unchanged:
    'oldString and newString are identical, so the edit would change nothing. Give the new text in newString.',
}

export function invalidEditError(
  rule: NonNullable<FsErrorDetails['rule']>,
  path?: string,
): FsError {
  return new FsError('FS_INVALID_EDIT', INVALID_EDIT[rule], { path, details: { rule } })
}

export function editNotFoundError(path: string | undefined): FsError {
  return new FsError(
    'FS_EDIT_NOT_FOUND',
    `The text to replace was not found in ${path ?? 'the file'}. Read the file again and copy the text exactly, including whitespace and indentation.`,
    { path },
  )
}

export function ambiguousEditError(path: string | undefined, matches: number): FsError {
  return new FsError(
    'FS_AMBIGUOUS_EDIT',
    `The text to replace occurs ${matches} times in ${path ?? 'the file'}. Include more surrounding lines so it matches exactly once, or set replaceAll to replace all ${matches}.`,
    { path, details: { matches } },
  )
}

/** Throws FS_ABORTED when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, path?: string): void {
  if (signal?.aborted) throw new FsError('FS_ABORTED', 'The operation was cancelled.', { path })
}
