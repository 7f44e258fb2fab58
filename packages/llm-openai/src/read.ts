// Reads an open streaming response into `ctx.llm` stream events: bytes → text (UTF-8, split
// characters kept across reads) → SSE events (sse.ts) → stream events (stream.ts). It adds
// what only the live body knows: the abort signal, the idle timeout between chunks, and a
// connection cut mid-way, each as its own error. It never retries: events already left.
import { LlmError, createAbortError, throwIfAborted } from '@deepseek-ai/dsh-llm'
import type { LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import { SseParser } from './sse'
import { ChatStreamAssembler } from './stream'
import type { OpenStream } from './http'

export interface ReadOptions {
  signal?: AbortSignal
  timeoutMs?: number
}

type Reader = ReadableStreamDefaultReader<Uint8Array>

async function readChunk(
  reader: Reader,
  open: OpenStream,
  options: ReadOptions,
): ReturnType<Reader['read']> {
  let timedOut = false
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true
          open.abortAttempt(new Error('idle timeout'))
        }, options.timeoutMs)
  try {
    return await reader.read()
  } catch (error) {
    if (options.signal?.aborted) throw createAbortError(options.signal)
    if (timedOut) {
      throw new LlmError(
        'LLM_TIMEOUT',
        `the model's stream sent nothing for ${options.timeoutMs} ms`,
        { cause: error },
      )
    }
    const reason = error instanceof Error ? error.message : String(error)
    throw new LlmError('LLM_STREAM', `the model's stream ended early: ${reason}`, { cause: error })
  } finally {
    clearTimeout(timer)
  }
}

export async function* readChatStream(
  open: OpenStream,
  options: ReadOptions,
): AsyncGenerator<LlmStreamEvent> {
  const body = open.response.body
  if (body === null) throw new LlmError('LLM_STREAM', "the model's response has no body")
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const parser = new SseParser()
  const assembler = new ChatStreamAssembler()
  try {
    for (;;) {
      const { done, value } = await readChunk(reader, open, options)
      const payloads = done ? parser.push(decoder.decode()).concat(parser.end()) : []
      if (!done) payloads.push(...parser.push(decoder.decode(value, { stream: true })))
      for (const data of payloads) {
        for (const event of assembler.push(data)) {
          yield event
          throwIfAborted(options.signal)
        }
        if (assembler.done) return
      }
      if (done) {
        yield* assembler.end()
        return
      }
    }
  } finally {
    // Stops the connection when the consumer leaves early or an error ends the read;
    // a cancel of an already-closed body has nothing to report, so its rejection is dropped.
    reader.cancel().catch(() => undefined)
  }
}
