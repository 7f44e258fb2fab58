// A local Chat Completions server for the tests: it records each request (path, headers,
// parsed body) and answers with the handler for that request's position (the last handler
// answers every later request). Listens on 127.0.0.1, port 0.
import { createServer } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

export type Handler = (res: ServerResponse, req: IncomingMessage) => void

export interface TestServer {
  baseUrl: string
  received: Received[]
  close: () => Promise<void>
}

export async function startServer(...handlers: Handler[]): Promise<TestServer> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (piece: string) => (text += piece))
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: text === '' ? {} : JSON.parse(text),
      })
      const handler = handlers[Math.min(received.length, handlers.length) - 1]!
      handler(res, req)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The SSE text of a list of payloads (objects are JSON-encoded). */
export function sseText(payloads: (object | string)[]): string {
  return payloads
    .map(
      (payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`,
    )
    .join('')
}

/** Answers 200 with the payloads as an event stream, then `[DONE]`. */
export function streamOf(payloads: (object | string)[]): Handler {
  return (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.end(sseText([...payloads, '[DONE]']))
  }
}

/** Answers with a status and a JSON error body. */
export function errorOf(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Handler {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(JSON.stringify({ error: { message, type: 'test_error' } }))
  }
}

/** Never answers (until the client gives up or the server closes). */
export const silent: Handler = () => undefined

export const delta = (value: object, finish: string | null = null): object => ({
  id: 'chatcmpl-test',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: value, finish_reason: finish }],
})

/** A `serve(...handlers)` for a test file: each test's server is closed after that test. */
export function serveEachTest(): (...handlers: Handler[]) => Promise<TestServer> {
  let server: TestServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  return async (...handlers) => (server = await startServer(...handlers))
}
