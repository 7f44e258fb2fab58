// An OpenAI-compatible model server on 127.0.0.1 for the long-session tests and the bench: it
// counts each request's tokens its own way (UTF-8 bytes / 3 of the messages and tools, plus
// `skew`), refuses a request over its window with a 400 as DeepSeek words it, reports usage
// with the prompt-cache hits (the tokens of the prefix it shares with the request before),
// answers a compaction's summary request with a summary, and otherwise asks `next` what to
// answer for the n-th answered request. It serves `GET /models` when given a list, and
// records each request's headers, body and tokens.
import { createServer } from 'node:http'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ModelAnswer {
  text?: string
  calls?: { name: string; arguments: Record<string, unknown> }[]
}

export interface WireMessage {
  role: string
  content?: string | null
  tool_calls?: { id: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

export interface ModelRequest {
  headers: IncomingHttpHeaders
  body: { model: string; messages: WireMessage[]; tools?: unknown[] }
  tokens: number
  refused: boolean
  summary: boolean
}

export interface ModelServerOptions {
  window: number
  /** What to answer to the n-th answered request that is not a summary (0-based). */
  next: (index: number, request: ModelRequest) => ModelAnswer
  /** Tokens the server counts beyond the messages (its own template). */
  skew?: number
  /** Served as GET /models; none: 404. */
  models?: string[]
}

export interface ModelServer {
  url: string
  requests: ModelRequest[]
  /** GET /models requests, by their headers. */
  listed: IncomingHttpHeaders[]
  close(): Promise<void>
}

export function tokensOf(body: ModelRequest['body'], skew = 0): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify([body.messages, body.tools ?? []])) / 3) + skew
}

/** The tokens of the longest message prefix two requests share. */
function sharedTokens(a: ModelRequest['body'] | undefined, b: ModelRequest['body']): number {
  if (a === undefined) return 0
  let shared = 0
  while (shared < a.messages.length && shared < b.messages.length) {
    if (JSON.stringify(a.messages[shared]) !== JSON.stringify(b.messages[shared])) break
    shared += 1
  }
  return tokensOf({ ...b, messages: b.messages.slice(0, shared), tools: [] })
}

const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`

function stream(
  response: ServerResponse,
  answer: ModelAnswer,
  usage: object,
  callBase: number,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' })
  let text = ''
  if (answer.text) text += chunk({ content: answer.text })
  const calls = answer.calls ?? []
  calls.forEach((call, index) => {
    const id = `call_${callBase}_${index}`
    const fn = { name: call.name, arguments: JSON.stringify(call.arguments) }
    text += chunk({ tool_calls: [{ index, id, type: 'function', function: fn }] })
  })
  text += chunk({}, calls.length > 0 ? 'tool_calls' : 'stop')
  text += `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [], usage })}\n\n`
  response.end(`${text}data: [DONE]\n\n`)
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: ModelRequest[] = []
  const listed: IncomingHttpHeaders[] = []
  let answered = 0
  let previous: ModelRequest['body'] | undefined
  const server = createServer((req, res) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (piece: string) => (raw += piece))
    req.on('end', () => {
      if (req.method === 'GET' && req.url?.endsWith('/models')) {
        listed.push(req.headers)
        if (options.models === undefined) {
          res.writeHead(404).end()
          return
        }
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            object: 'list',
            data: options.models.map((id) => ({ id, object: 'model' })),
          }),
        )
        return
      }
      const body = JSON.parse(raw) as ModelRequest['body']
      const tokens = tokensOf(body, options.skew)
      const system = body.messages[0]?.role === 'system' ? String(body.messages[0].content) : ''
      const summary = system.startsWith('You compact')
      const request: ModelRequest = {
        headers: req.headers,
        body,
        tokens,
        refused: tokens > options.window,
        summary,
      }
      requests.push(request)
      if (request.refused) {
        res.writeHead(400, { 'content-type': 'application/json' })
        const message = `This model's maximum context length is ${options.window} tokens. However, you requested ${tokens} tokens (${tokens} in the messages, 0 in the completion). Please reduce the length of the messages or completion.`
        res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }))
        return
      }
      const cached = summary ? 0 : sharedTokens(previous, body)
      if (!summary) previous = body
      const usage = {
        prompt_tokens: tokens,
        completion_tokens: 20,
        prompt_cache_hit_tokens: cached,
        prompt_cache_miss_tokens: tokens - cached,
      }
      if (summary) {
        stream(
          res,
          { text: `- the person asked for work; ${body.messages.length} messages summarised` },
          usage,
          0,
        )
        return
      }
      const index = answered
      answered += 1
      stream(res, options.next(index, request), usage, index)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    listed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
