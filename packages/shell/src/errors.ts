// ShellError: every failure ctx.shell reports. A raw Node error (ENOENT, EACCES) never escapes
// a provider; the codes are listed here and in the README.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const SHELL_ERROR_CODES = [
  /** The working directory does not exist or is not a directory. */
  'SHELL_BAD_CWD',
  /** The shell could not be started (no `bash`, no process slot). */
  'SHELL_SPAWN_FAILED',
  /** No background job has that id (it never existed, or its session ended). */
  'SHELL_JOB_NOT_FOUND',
  /** A background job with that id runs already. */
  'SHELL_JOB_EXISTS',
  /** The provider was disposed: nothing more runs through it. */
  'SHELL_DISPOSED',
] as const

export type ShellErrorCode = (typeof SHELL_ERROR_CODES)[number]

export class ShellError extends codedError('ShellError', SHELL_ERROR_CODES) {}

/** True for a ShellError (of `code`, when given). */
export const isShellError = guardOf(ShellError)
