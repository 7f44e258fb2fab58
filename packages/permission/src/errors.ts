// PermissionError: why the permission layer stopped a call before its tool ran. The listener
// throws it; the registry turns the throw into an error result with `error: { name, code }`,
// so the model reads the message and a host can branch on the code. `forPerson` is what the
// person reads on the call's card: the message is worded for the model (what to do next, never
// to retry), the card says what happened to the person who decided. Codes listed here and in
// the README.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const PERMISSION_ERROR_CODES = [
  /** The person rejected the call. */
  'PERMISSION_REJECTED',
  /** The session's mode refuses the call, nothing can ask the person and the host denies unanswered requests, or the UI could not ask. */
  'PERMISSION_DENIED',
  /** The request was cancelled before an answer: the turn was cancelled, or the UI answered `cancelled`. */
  'PERMISSION_CANCELLED',
] as const

export type PermissionErrorCode = (typeof PERMISSION_ERROR_CODES)[number]

export class PermissionError extends codedError('PermissionError', PERMISSION_ERROR_CODES) {
  /** The sentence a person reads on the card, when it differs from the model's message. */
  readonly forPerson?: string

  constructor(
    code: PermissionErrorCode,
    message: string,
    options?: { cause?: unknown; forPerson?: string },
  ) {
    super(code, message, options)
    if (options?.forPerson !== undefined) this.forPerson = options.forPerson
  }
}

/** True for a PermissionError (of `code`, when given). */
export const isPermissionError = guardOf(PermissionError)
