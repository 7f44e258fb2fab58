// An OpenAI-compatible model on 127.0.0.1 for the bin's tests: it records every request body
// and answers each with the next scripted list of SSE events (then `[DONE]`); it offers no
// model list (GET /models is 404).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  model?: string
  thinking?: { type: string }
  reasoning_effort?: string
  messages: { role: string; content?: string; tool_calls?: unknown[] }[]
  tools?: { function: { name: string; parameters?: unknown } }[]
}

export interface ModelServer {
  bodies: RecordedRequest[]
  /** The base URL to give the bin (`--base-url`). */
  url: string
  close(): void
}

export async function recordingServer(answers: string[][]): Promise<ModelServer> {
  const bodies: RecordedRequest[] = []
  const server = createServer((request, response) => {
    // The model list (GET /models) is not offered: the bin falls back to its known models.
    if (request.method === 'GET') return void response.writeHead(404).end()
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => {
      bodies.push(JSON.parse(body) as RecordedRequest)
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(`${(answers[bodies.length - 1] ?? []).join('')}data: [DONE]\n\n`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { bodies, url: `http://127.0.0.1:${port}/v1`, close: () => server.close() }
}

/** One SSE event of a streamed chat completion. */
export function sse(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
}

/** A response that calls one tool. */
export function toolCallAnswer(id: string, name: string, args: object): string[] {
  const call = {
    index: 0,
    id,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  }
  return [sse({ tool_calls: [call] }), sse({}, 'tool_calls')]
}

/** A response of plain text. */
export function textAnswer(text: string): string[] {
  return [sse({ content: text }), sse({}, 'stop')]
}
