import { describe, expect, it } from 'vitest'
import type { LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import { collect, failure, model, request } from './helpers/client'
import {
  delta,
  errorOf,
  serveEachTest,
  silent,
  sseText,
  startServer,
  streamOf,
} from './helpers/server'
import type { Handler } from './helpers/server'

const serve = serveEachTest()

/** A promise and the function that resolves it. */
function signalled(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

/** Sends the head and one text delta, then keeps the response open; `closed` fires on close. */
function stalled(closed?: () => void): Handler {
  return (res) => {
    res.on('close', () => closed?.())
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write(sseText([delta({ content: 'first' })]))
  }
}

const ok = streamOf([delta({ content: 'ok' }, 'stop')])
const okEvents: LlmStreamEvent[] = [
  { type: 'text-delta', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

describe('retries', () => {
  it('a 429 with Retry-After 0 is retried and then succeeds', async () => {
    const target = await serve(errorOf(429, 'slow down', { 'retry-after': '0' }), ok)
    const llm = await model({ baseUrl: target.baseUrl, retryBaseMs: 600_000 })
    expect(await collect(llm.stream(request()))).toEqual(okEvents)
    expect(target.received).toHaveLength(2)
  })

  it('a long Retry-After is capped by maxRetryDelayMs', async () => {
    const target = await serve(errorOf(503, 'busy', { 'retry-after': '3600' }), ok)
    const llm = await model({ baseUrl: target.baseUrl, maxRetryDelayMs: 1 })
    expect(await collect(llm.stream(request()))).toEqual(okEvents)
  })

  it('a 500 on every attempt fails after maxRetries + 1 requests with the server message', async () => {
    const target = await serve(errorOf(500, 'internal boom'))
    const llm = await model({ baseUrl: target.baseUrl, maxRetries: 3 })
    const error = await failure(llm.stream(request()))
    expect([error.code, error.status, error.message]).toEqual([
      'LLM_HTTP',
      500,
      'the model server failed (500) after 4 attempts: internal boom',
    ])
    expect(target.received).toHaveLength(4)
  })

  it('a rate limit that persists is LLM_RATE_LIMIT', async () => {
    const target = await serve(errorOf(429, 'quota'))
    const llm = await model({ baseUrl: target.baseUrl, maxRetries: 1 })
    const error = await failure(llm.stream(request()))
    expect([error.code, error.message]).toEqual([
      'LLM_RATE_LIMIT',
      'the model server is rate limiting requests (429) after 2 attempts: quota',
    ])
  })

  it('a 400 is not retried and carries the server message', async () => {
    const target = await serve(errorOf(400, 'Model Not Exist'))
    const llm = await model({ baseUrl: target.baseUrl })
    const error = await failure(llm.stream(request()))
    expect([error.code, error.status, error.message]).toEqual([
      'LLM_HTTP',
      400,
      'the model server refused the request (400): Model Not Exist',
    ])
    expect(target.received).toHaveLength(1)
  })

  it('a plain-text error body is used as the message', async () => {
    const target = await serve((res) => res.writeHead(502).end('Bad Gateway from proxy'))
    const llm = await model({ baseUrl: target.baseUrl, maxRetries: 0 })
    const error = await failure(llm.stream(request()))
    expect(error.message).toBe(
      'the model server failed (502) after 1 attempt: Bad Gateway from proxy',
    )
  })

  it('an unreachable server is LLM_NETWORK after the retries', async () => {
    const closed = await startServer(ok)
    await closed.close()
    const llm = await model({ baseUrl: closed.baseUrl, maxRetries: 1 })
    const error = await failure(llm.stream(request()))
    expect(error.code).toBe('LLM_NETWORK')
    expect(error.message).toBe(
      `cannot reach the model server at ${closed.baseUrl}/chat/completions (2 attempts): fetch failed (ECONNREFUSED)`,
    )
  })

  it('a server that never answers is LLM_TIMEOUT after the retries', async () => {
    const target = await serve(silent)
    const llm = await model({ baseUrl: target.baseUrl, maxRetries: 1, timeoutMs: 50 })
    const error = await failure(llm.stream(request()))
    expect([error.code, error.message]).toEqual([
      'LLM_TIMEOUT',
      'the model server did not answer within 50 ms (2 attempts)',
    ])
    expect(target.received).toHaveLength(2)
  })
})

describe('broken streams', () => {
  it('a connection cut mid-stream is an early end, after the events that arrived', async () => {
    const target = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(sseText([delta({ content: 'partial' })]), () =>
        setImmediate(() => res.socket?.destroy()),
      )
    })
    const llm = await model({ baseUrl: target.baseUrl })
    const seen: LlmStreamEvent[] = []
    const run = async (): Promise<void> => {
      for await (const event of llm.stream(request())) seen.push(event)
    }
    const error = await run().catch(
      (caught: unknown) => caught as { code: string; message: string },
    )
    expect(seen).toEqual([{ type: 'text-delta', text: 'partial' }])
    expect(error?.code).toBe('LLM_STREAM')
    expect(error?.message).toMatch(/^the model's stream ended early: /)
  })

  it('a body that closes without a finish reason or done is an early end', async () => {
    const target = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(sseText([delta({ content: 'half' })]))
    })
    const llm = await model({ baseUrl: target.baseUrl })
    const error = await failure(llm.stream(request()))
    expect([error.code, error.message]).toEqual([
      'LLM_STREAM',
      "the model's stream ended early (no finish reason and no [DONE])",
    ])
  })

  it('a stream silent for longer than timeoutMs is LLM_TIMEOUT', async () => {
    const target = await serve(stalled())
    const llm = await model({ baseUrl: target.baseUrl, timeoutMs: 100 })
    const error = await failure(llm.stream(request()))
    expect([error.code, error.message]).toEqual([
      'LLM_TIMEOUT',
      "the model's stream sent nothing for 100 ms",
    ])
  })
})

describe('cancel', () => {
  it('an abort while the server is slow to answer rejects with LLM_ABORTED', async () => {
    const arrived = signalled()
    const target = await serve(() => arrived.resolve())
    const llm = await model({ baseUrl: target.baseUrl })
    const controller = new AbortController()
    const pending = failure(llm.stream(request({ signal: controller.signal })))
    await arrived.promise
    controller.abort()
    expect(await pending).toMatchObject({ name: 'LlmError', code: 'LLM_ABORTED' })
  })

  it('an abort mid-stream rejects the next read and closes the connection', async () => {
    const closed = signalled()
    const target = await serve(stalled(closed.resolve))
    const llm = await model({ baseUrl: target.baseUrl })
    const controller = new AbortController()
    const iterator = llm.stream(request({ signal: controller.signal }))[Symbol.asyncIterator]()
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'first' })
    const next = iterator.next()
    controller.abort()
    await expect(next).rejects.toMatchObject({ name: 'LlmError', code: 'LLM_ABORTED' })
    await closed.promise
  })

  it('an abort during a backoff wait ends it without another request', async () => {
    const answered = signalled()
    const target = await serve((res) => {
      res.on('finish', () => setTimeout(answered.resolve, 20))
      errorOf(503, 'busy', { 'retry-after': '600' })(res, undefined as never)
    })
    const llm = await model({ baseUrl: target.baseUrl, maxRetryDelayMs: 600_000 })
    const controller = new AbortController()
    const pending = failure(llm.stream(request({ signal: controller.signal })))
    await answered.promise
    controller.abort()
    expect(await pending).toMatchObject({ name: 'LlmError', code: 'LLM_ABORTED' })
    expect(target.received).toHaveLength(1)
  })

  it('a consumer that stops reading early closes the connection', async () => {
    const closed = signalled()
    const target = await serve(stalled(closed.resolve))
    const llm = await model({ baseUrl: target.baseUrl })
    for await (const event of llm.stream(request())) {
      expect(event).toEqual({ type: 'text-delta', text: 'first' })
      break
    }
    await closed.promise
  })
})
