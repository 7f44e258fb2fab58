// Opens the streaming Chat Completions response: one POST per attempt over global `fetch`,
// retrying 408, 429, 5xx, network errors and header timeouts with exponential backoff (a
// server's `Retry-After` wins, both capped), and turning every other failure into an
// `LlmError` with a code. It does not read the stream body (see read.ts).
import { LlmError, abortableDelay, createAbortError, throwIfAborted } from '@deepseek-ai/dsh-llm'
import { API_KEY_ENVS, authorization } from './models'

export interface OpenStreamOptions {
  url: string
  /** None: no Authorization header (a keyless local server). */
  apiKey: string | undefined
  body: string
  maxRetries: number
  retryBaseMs: number
  maxRetryDelayMs: number
  timeoutMs?: number
  signal?: AbortSignal
}

/** An open response, with the means to abort its attempt (the body reader's idle timeout). */
export interface OpenStream {
  response: Response
  abortAttempt: (reason: unknown) => void
}

const attempts = (count: number): string => (count === 1 ? '1 attempt' : `${count} attempts`)

function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500
}

/** The server's own words: `error.message`, `message`, `error`, or the text, shortened. */
export function serverMessage(text: string, statusText: string): string {
  try {
    const body: unknown = JSON.parse(text)
    if (typeof body === 'object' && body !== null) {
      const { error, message } = body as { error?: unknown; message?: unknown }
      if (typeof error === 'object' && error !== null) {
        const inner = (error as { message?: unknown }).message
        if (typeof inner === 'string' && inner !== '') return inner
      }
      if (typeof error === 'string' && error !== '') return error
      if (typeof message === 'string' && message !== '') return message
    }
  } catch {
    // Not JSON: the raw text below is the message.
  }
  const trimmed = text.trim()
  if (trimmed === '') return statusText === '' ? 'no message' : statusText
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed
}

/** Milliseconds from a `Retry-After` header (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

function failureFor(status: number, message: string, tries: number): LlmError {
  if (status === 401 || status === 403) {
    return new LlmError(
      'LLM_AUTH',
      `the API key was refused (${status}) — check ${API_KEY_ENVS.join(', ')}, the key stored by dsh-acp --login, or the apiKey option: ${message}`,
      { status },
    )
  }
  if (status === 429) {
    return new LlmError(
      'LLM_RATE_LIMIT',
      `the model server is rate limiting requests (429) after ${attempts(tries)}: ${message}`,
      { status },
    )
  }
  if (status >= 500 || status === 408) {
    return new LlmError(
      'LLM_HTTP',
      `the model server failed (${status}) after ${attempts(tries)}: ${message}`,
      { status },
    )
  }
  if (isContextTooLong(status, message)) {
    return new LlmError(
      'LLM_CONTEXT_TOO_LONG',
      `the model server refused the request as too long for the model's context window (${status}): ${message}`,
      { status },
    )
  }
  return new LlmError('LLM_HTTP', `the model server refused the request (${status}): ${message}`, {
    status,
  })
}

/** A 400 or 413 whose words say the prompt is over the window (as OpenAI, DeepSeek, vLLM say it). */
export function isContextTooLong(status: number, message: string): boolean {
  if (status !== 400 && status !== 413) return false
  return /context[ _]length|context window|maximum context|too many tokens|(prompt|input) is too long|reduce the length/i.test(
    message,
  )
}

/** A fetch failure's words, with its cause's code or message ("fetch failed (ECONNREFUSED)"). */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined
  const detail = typeof cause?.code === 'string' ? cause.code : cause?.message
  return typeof detail === 'string' && detail !== ''
    ? `${error.message} (${detail})`
    : error.message
}

/** One attempt's outcome: the open stream, or a retryable failure and the server's wait. */
type Attempt = OpenStream | { failure: LlmError; waitMs?: number }

async function attemptOnce(options: OpenStreamOptions, tries: number): Promise<Attempt> {
  const { signal } = options
  const controller = new AbortController()
  const combined = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal
  let timedOut = false
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true
          controller.abort()
        }, options.timeoutMs)
  try {
    const response = await fetch(options.url, {
      method: 'POST',
      headers: {
        ...authorization(options.apiKey),
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: options.body,
      signal: combined,
    })
    if (response.ok && response.body !== null) {
      return { response, abortAttempt: (reason) => controller.abort(reason) }
    }
    const text = await response.text()
    const failure = failureFor(response.status, serverMessage(text, response.statusText), tries)
    if (!isRetryable(response.status)) throw failure
    return { failure, waitMs: retryAfterMs(response.headers.get('retry-after')) }
  } catch (error) {
    if (signal?.aborted) throw createAbortError(signal)
    if (error instanceof LlmError) throw error
    if (timedOut) {
      const message = `the model server did not answer within ${options.timeoutMs} ms (${attempts(tries)})`
      return { failure: new LlmError('LLM_TIMEOUT', message) }
    }
    const message = `cannot reach the model server at ${options.url} (${attempts(tries)}): ${networkReason(error)}`
    return { failure: new LlmError('LLM_NETWORK', message, { cause: error }) }
  } finally {
    clearTimeout(timer)
  }
}

/** Opens the stream, retrying as the module comment says; rejects with the last failure. */
export async function openChatStream(options: OpenStreamOptions): Promise<OpenStream> {
  for (let attempt = 0; ; attempt += 1) {
    throwIfAborted(options.signal)
    const outcome = await attemptOnce(options, attempt + 1)
    if ('response' in outcome) return outcome
    if (attempt >= options.maxRetries) throw outcome.failure
    const backoff = options.retryBaseMs * 2 ** attempt
    const wait = Math.min(options.maxRetryDelayMs, outcome.waitMs ?? backoff)
    await abortableDelay(wait, options.signal)
  }
}
