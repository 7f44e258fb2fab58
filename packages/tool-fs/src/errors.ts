// ToolFsError: failures the tools themselves detect (not a provider's FsError), with a code
// the registry reports as `error: { name: 'ToolFsError', code }`.
import { FsError, isFsError } from '@deepseek-ai/dsh-fs'

export const TOOL_FS_ERROR_CODES = ['FS_OFFSET_PAST_END'] as const

export type ToolFsErrorCode = (typeof TOOL_FS_ERROR_CODES)[number]

export class ToolFsError extends Error {
  override readonly name = 'ToolFsError'

  constructor(
    readonly code: ToolFsErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/**
 * A refusal by the read-before-write gate (or an ambiguous edit), restated in the tool's words
 * so the model knows what to do next; the code is kept and the original error is the `cause`.
 */
export function restateFsError(error: unknown, path: string, action: 'write' | 'edit'): unknown {
  if (!isFsError(error)) return error
  if (error.code === 'FS_AMBIGUOUS_EDIT' && error.message.includes('replaceAll')) {
    // The seam names its request field; the model knows the tool argument.
    const message = error.message.replaceAll('replaceAll', 'replace_all')
    return new FsError('FS_AMBIGUOUS_EDIT', message, { path, cause: error })
  }
  if (error.code === 'FS_STALE_VERSION') {
    const message = `${path} has changed since it was last read. Read it again, then retry the ${action}.`
    return new FsError('FS_STALE_VERSION', message, { path, cause: error })
  }
  if (error.code === 'FS_NOT_OBSERVED') {
    const message =
      action === 'write'
        ? `${path} already exists and has not been read in this session. Read it first (any part is enough), then write it.`
        : `${path} has not been read in this session. Read it first (any part is enough), then edit it.`
    return new FsError('FS_NOT_OBSERVED', message, { path, cause: error })
  }
  return error
}
