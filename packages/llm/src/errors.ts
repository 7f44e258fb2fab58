// LlmError: the one error of the ctx.llm seam, with a `code` from LLM_ERROR_CODES. Providers
// throw it for every failure, the script parser for a bad script (with `path` and `file`), and
// every stream for an abort (`createAbortError`). No I/O here; callers branch on `code`.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const LLM_ERROR_CODES = [
  /** The request's signal fired: during the request, the stream or a wait. */
  'LLM_ABORTED',
  /** The server refused the API key (401 or 403). */
  'LLM_AUTH',
  /** The server answered with a failing HTTP status other than auth or rate limiting. */
  'LLM_HTTP',
  /** The server refused the request as longer than the model's context window. */
  'LLM_CONTEXT_TOO_LONG',
  /** The server could not be reached. */
  'LLM_NETWORK',
  /** A network provider has no API key, so nothing was sent. */
  'LLM_NO_KEY',
  /** The server kept rate limiting (429) through every retry. */
  'LLM_RATE_LIMIT',
  /** A model script is malformed or cannot be read (`path` and `file` say where). */
  'LLM_SCRIPT_INVALID',
  /** The response stream broke its protocol or ended early. */
  'LLM_STREAM',
  /** The server or its stream stayed silent for longer than the timeout. */
  'LLM_TIMEOUT',
] as const

export type LlmErrorCode = (typeof LLM_ERROR_CODES)[number]

export interface LlmErrorOptions {
  /** The HTTP status, when the error comes from a server response. */
  status?: number
  /** `LLM_SCRIPT_INVALID`: the bad script entry (`turns[2].toolCalls[0].name`). */
  path?: string
  /** `LLM_SCRIPT_INVALID`: the script file. */
  file?: string
  cause?: unknown
}

export class LlmError extends codedError('LlmError', LLM_ERROR_CODES) {
  readonly status?: number
  readonly path?: string
  readonly file?: string

  constructor(code: LlmErrorCode, message: string, options: LlmErrorOptions = {}) {
    super(code, message, options)
    this.status = options.status
    this.path = options.path
    this.file = options.file
  }
}

/** True for an LlmError (of `code`, when given). */
export const isLlmError = guardOf(LlmError)

/** The error a stream throws when its request's signal fires: `LLM_ABORTED`, with the reason. */
export function createAbortError(signal?: AbortSignal): LlmError {
  return new LlmError('LLM_ABORTED', 'the model request was aborted', { cause: signal?.reason })
}

/** True for the abort error of any provider, and for a DOM or fetch `AbortError`. */
export function isAbortError(value: unknown): boolean {
  return isLlmError(value, 'LLM_ABORTED') || (value instanceof Error && value.name === 'AbortError')
}
