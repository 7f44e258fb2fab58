// An OpenAI-compatible chat-completions server on 127.0.0.1 for the tests that run the real
// llm-openai plugin: it records every request body and streams what `answer` (which may wait)
// gives for it: text and tool calls, then a usage chunk and `[DONE]`; an `answer` that throws
// is a 500 with its message; it counts the requests whose client went away unanswered.
// `GET /models` is 404.
// Closed with `close()` (every connection, so no test hangs on a streaming answer).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface WireMessage {
  role: string
  content?: string | null
  tool_calls?: { id: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

export interface WireRequest {
  model: string
  messages: WireMessage[]
  tools?: { function: { name: string } }[]
}

export interface ModelAnswer {
  text?: string
  calls?: { id: string; name: string; arguments: Record<string, unknown> }[]
}

export interface ModelServer {
  /** The API root to give llm-openai (`baseUrl`). */
  url: string
  requests: WireRequest[]
  /** Requests whose client went away before the answer was sent. */
  dropped(): number
  close(): Promise<void>
}

/** Tokens each answer reports: input and output. */
export const ANSWER_USAGE = { prompt_tokens: 1000, completion_tokens: 100 }

const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`

/** The SSE stream of an answer: its text, its calls, the finish, the usage, `[DONE]`. */
function streamOf({ text, calls = [] }: ModelAnswer): string {
  let stream = text === undefined ? '' : chunk({ content: text })
  calls.forEach((call, index) => {
    const fn = { name: call.name, arguments: JSON.stringify(call.arguments) }
    stream += chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: fn }] })
  })
  stream += chunk({}, calls.length > 0 ? 'tool_calls' : 'stop')
  stream += `data: ${JSON.stringify({ choices: [], usage: ANSWER_USAGE })}\n\n`
  return `${stream}data: [DONE]\n\n`
}

/** What to answer; `gone` settles when the request's client goes away first. */
export type Answerer = (
  request: WireRequest,
  gone: Promise<void>,
) => ModelAnswer | Promise<ModelAnswer>

export async function startModelServer(answer: Answerer): Promise<ModelServer> {
  const requests: WireRequest[] = []
  let dropped = 0
  const server = createServer((req, res) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (piece: string) => (raw += piece))
    req.on('end', () => {
      if (req.method === 'GET') return void res.writeHead(404).end()
      const body = JSON.parse(raw) as WireRequest
      requests.push(body)
      const gone = new Promise<void>((resolve) =>
        res.on('close', () => {
          if (res.writableEnded) return
          dropped += 1
          resolve()
        }),
      )
      void Promise.resolve(body)
        .then((request) => answer(request, gone))
        .then(
          (answered) => {
            if (res.destroyed) return
            res.writeHead(200, { 'content-type': 'text/event-stream' })
            res.end(streamOf(answered))
          },
          (error: unknown) => {
            if (res.destroyed) return
            res.writeHead(500, { 'content-type': 'application/json' })
            res.end(JSON.stringify({ error: { message: String(error) } }))
          },
        )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    dropped: () => dropped,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
