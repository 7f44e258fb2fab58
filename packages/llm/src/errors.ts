// Errors of the ctx.llm seam: `LlmError` with a string `code`, the script error of the
// scripted model, and the abort error every provider throws when the request's signal fires.
// No I/O here; providers import these so callers can branch on `code` or `name`.

export type LlmErrorCode =
  | 'LLM_ABORTED'
  | 'LLM_AUTH'
  | 'LLM_HTTP'
  | 'LLM_NETWORK'
  | 'LLM_NO_KEY'
  | 'LLM_RATE_LIMIT'
  | 'LLM_SCRIPT_INVALID'
  | 'LLM_STREAM'
  | 'LLM_TIMEOUT'

export interface LlmErrorOptions {
  /** The HTTP status, when the error comes from a server response. */
  status?: number
  cause?: unknown
}

export class LlmError extends Error {
  readonly code: LlmErrorCode
  readonly status?: number

  constructor(code: LlmErrorCode, message: string, options: LlmErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'LlmError'
    this.code = code
    if (options.status !== undefined) this.status = options.status
  }
}

export function isLlmError(value: unknown): value is LlmError {
  return value instanceof LlmError
}

/** A malformed model script: `path` names the bad entry (`turns[2].toolCalls[0].name`). */
export class LlmScriptError extends LlmError {
  readonly path?: string
  readonly file?: string

  constructor(message: string, details: { path?: string; file?: string; cause?: unknown } = {}) {
    super('LLM_SCRIPT_INVALID', message, { cause: details.cause })
    this.name = 'LlmScriptError'
    if (details.path !== undefined) this.path = details.path
    if (details.file !== undefined) this.file = details.file
  }
}

/**
 * The error a stream throws when its request's signal fires: an `LlmError` with code
 * `LLM_ABORTED` and name `AbortError`, so both `error.name === 'AbortError'` and the code work.
 */
export function createAbortError(signal?: AbortSignal): LlmError {
  const error = new LlmError('LLM_ABORTED', 'the model request was aborted', {
    cause: signal?.reason,
  })
  error.name = 'AbortError'
  return error
}

/** True for the abort error of any provider (and for DOM-style `AbortError`s). */
export function isAbortError(value: unknown): boolean {
  return value instanceof Error && value.name === 'AbortError'
}
