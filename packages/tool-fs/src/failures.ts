// What a model is told when a file tool fails: the tools' own words for each FsError code, in
// the vocabulary of their arguments (`old_string`, `replace_all`) and with the next step to
// take. The seam's neutral message stays on the error as its `cause`; the code, the path and
// the details are kept, so a UI still branches on the code. A code with no wording of its own
// here (a full disk, a permission refusal) passes through as the provider worded it.
import { FsError, isFsError } from '@deepseek-ai/dsh-fs'
import type { FsErrorCode, FsErrorDetails } from '@deepseek-ai/dsh-fs'
import { formatOffsetPastEnd } from './read-render'

export type ToolFsAction = 'read' | 'write' | 'edit'

/** The call a failure belongs to: the path as the model sees it, and what the tool did. */
export interface ToolFsCall {
  path: string
  action: ToolFsAction
}

type Wording = (call: ToolFsCall, details: FsErrorDetails) => string | undefined

const NOT_TEXT = {
  nul: 'it contains a NUL byte, so it looks binary',
  'invalid-utf8': 'it contains bytes that are not valid UTF-8',
} as const

const WORDING: Partial<Record<FsErrorCode, Wording>> = {
  FS_NOT_FOUND: ({ path, action }) => (action === 'read' ? `File not found: ${path}` : undefined),
  FS_NOT_REGULAR_FILE: ({ path, action }, { what }) => {
    if (action !== 'read') return undefined
    return what === 'a directory'
      ? `${path} is a directory, not a file. Read a file inside it.`
      : `${path} is not a regular file.`
  },
  FS_NOT_TEXT: ({ path }, { reason }) =>
    `${path} is not a UTF-8 text file (${NOT_TEXT[reason ?? 'invalid-utf8']}); it cannot be read or edited as text.`,
  FS_STALE_VERSION: ({ path, action }) =>
    action === 'read'
      ? `${path} changed while it was being read. Read it again.`
      : `${path} has changed since it was last read. Read it again, then retry the ${action}.`,
  FS_NOT_OBSERVED: ({ path, action }, { partial }) => {
    if (partial === true) {
      return `Only some lines of ${path} have been read in this session, and write replaces the whole file. Read the whole file first (read without offset and limit), then write it; or change those lines with edit.`
    }
    return action === 'write'
      ? `${path} already exists and has not been read in this session. Read it first (any part is enough), then write it.`
      : `${path} has not been read in this session. Read it first (any part is enough), then edit it.`
  },
  FS_AMBIGUOUS_EDIT: ({ path }, { matches }) =>
    `old_string occurs ${matches} times in ${path}. Include more surrounding lines in old_string so it matches exactly once, or set replace_all to true to replace all ${matches}.`,
  FS_EDIT_NOT_FOUND: ({ path }) =>
    `old_string was not found in ${path}. Read the file again and copy old_string exactly as it appears, whitespace and indentation included, without the line-number prefix.`,
  FS_INVALID_EDIT: (_call, { rule }) =>
    rule === 'unchanged'
      ? 'old_string and new_string are the same, so the edit would change nothing. Put the changed text in new_string.'
      : 'old_string is empty. Give the exact text to replace; to write a whole file, use write.',
  FS_PATH_CHANGED: ({ path, action }) =>
    `${path} no longer leads to the place that was checked before this ${action}: a folder on the path, or the file itself, was replaced by a link or moved meanwhile, so nothing was changed. Do not retry blindly: read the path again to see where it leads now, and tell the user if the change looks unexpected.`,
  FS_OFFSET_PAST_END: ({ path }, { offset, lines }) =>
    formatOffsetPastEnd(path, offset ?? 0, lines ?? 0),
}

/** The error a model sees for `error`, met by `call`: an FsError in the tools' words. */
export function forModel(error: unknown, call: ToolFsCall): unknown {
  if (!isFsError(error)) return error
  const message = WORDING[error.code]?.(call, error.details)
  if (message === undefined) return error
  return new FsError(error.code, message, {
    path: error.path ?? call.path,
    details: error.details,
    cause: error,
  })
}
