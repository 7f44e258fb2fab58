// One model request of a turn: stream the response from ctx.llm, report text and reasoning
// deltas as they arrive, and collect the tool calls. Cancellation is prompt: each read of the
// stream races the turn's abort signal, so a provider that is slow to notice the signal does
// not hold the turn. A stream that delivers faster than it is read (a scripted model, a burst
// the network buffered) is read in slices: past SLICE_MS of reading without the event loop
// getting a turn, the read waits for it, so timers, I/O and signals (the editor going away)
// are served while text streams. Not here: running tools or deciding whether the turn goes on.
import { isLlmError } from '@deepseek-ai/dsh-llm'
import type { Llm, LlmRequest, LlmToolCall, LlmUsage } from '@deepseek-ai/dsh-llm'

export interface ModelResponse {
  text: string
  reasoning: string
  toolCalls: LlmToolCall[]
  /** `done`: the stream ended; `cancelled`: the signal fired; `error`: the model failed. */
  outcome: 'done' | 'cancelled' | 'error'
  error?: string
  /** The LlmError code of a failure, when it had one (`LLM_CONTEXT_TOO_LONG`, …). */
  errorCode?: string
  /** What the server reported the request and its answer cost. */
  usage?: LlmUsage
}

export type ChunkHandler = (kind: 'text' | 'reasoning', text: string) => void

/** The longest a stream is read, in ms, before the event loop gets a turn. */
const SLICE_MS = 10

export async function streamModelResponse(
  llm: Llm,
  request: LlmRequest & { signal: AbortSignal },
  onChunk: ChunkHandler,
): Promise<ModelResponse> {
  const response: ModelResponse = { text: '', reasoning: '', toolCalls: [], outcome: 'done' }
  const { signal } = request
  const abort = abortPromise(signal)
  let iterator: AsyncIterator<unknown> | undefined
  try {
    if (signal.aborted) return { ...response, outcome: 'cancelled' }
    const stream = llm.stream(request)
    const events = stream[Symbol.asyncIterator]()
    iterator = events
    let sliceStart = performance.now()
    while (true) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        if (signal.aborted) return { ...response, outcome: 'cancelled' }
        sliceStart = performance.now()
      }
      const next = await Promise.race([events.next(), abort.promise])
      if (next === 'aborted') return { ...response, outcome: 'cancelled' }
      if (next.done) return response
      const event = next.value
      if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
        if (event.text === '') continue
        const kind = event.type === 'text-delta' ? 'text' : 'reasoning'
        response[kind] += event.text
        onChunk(kind, event.text)
      } else if (event.type === 'tool-call') {
        const id = event.id || `call_${response.toolCalls.length + 1}`
        response.toolCalls.push({ id, name: event.name, arguments: event.arguments })
      } else if (event.type === 'finish') {
        if (event.usage !== undefined) response.usage = event.usage
        if (event.reason === 'error') {
          return { ...response, outcome: 'error', error: 'The model finished with an error.' }
        }
      }
    }
  } catch (error) {
    if (signal.aborted) return { ...response, outcome: 'cancelled' }
    return {
      ...response,
      outcome: 'error',
      error: errorMessage(error),
      ...(isLlmError(error) && { errorCode: error.code }),
    }
  } finally {
    abort.release()
    if (signal.aborted && iterator) stopIterator(iterator)
  }
}

function abortPromise(signal: AbortSignal): { promise: Promise<'aborted'>; release(): void } {
  let onAbort = () => {}
  const promise = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted')
    if (signal.aborted) resolve('aborted')
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  return { promise, release: () => signal.removeEventListener('abort', onAbort) }
}

/**
 * Tells the provider's iterator to stop. Its late settling (often an AbortError) is of no
 * interest to a turn that already ended, so failures are dropped here on purpose.
 */
function stopIterator(iterator: AsyncIterator<unknown>): void {
  try {
    iterator.return?.().catch(() => undefined)
  } catch {
    return
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}
