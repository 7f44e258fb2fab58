// A model server on 127.0.0.1 that plays DeepSeek's rules for thinking, whatever the model is
// called: thinking is on unless the request says `thinking: { type: "disabled" }`; thinking,
// each answer streams its reasoning before its text or calls; and a thinking request whose
// tool-calling assistant messages lack `reasoning_content` is refused with DeepSeek's 400.
// Answers are played in request order; `GET /models` lists the given ids.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sse } from './recording-server'
import type { RecordedRequest } from './recording-server'

/** DeepSeek's words for a thinking request that dropped the reasoning of a tool call. */
export const MISSING_REASONING =
  'The `reasoning_content` in the thinking mode must be passed back to the API.'

export interface DeepSeekServer {
  bodies: RecordedRequest[]
  /** The requests refused with the 400, by index into `bodies`. */
  refused: number[]
  url: string
  close(): void
}

type WireMessage = RecordedRequest['messages'][number] & { reasoning_content?: unknown }

/** True when a thinking request carries the reasoning of every tool-calling answer. */
function keepsReasoning(body: RecordedRequest): boolean {
  return (body.messages as WireMessage[]).every(
    (message) =>
      message.role !== 'assistant' ||
      (message.tool_calls ?? []).length === 0 ||
      typeof message.reasoning_content === 'string',
  )
}

export async function deepseekServer(
  answers: string[][],
  ids: string[] = [],
): Promise<DeepSeekServer> {
  const bodies: RecordedRequest[] = []
  const refused: number[] = []
  const server = createServer((request, response) => {
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' })
      return void response.end(JSON.stringify({ data: ids.map((id) => ({ id })) }))
    }
    let text = ''
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    request.on('end', () => {
      const body = JSON.parse(text) as RecordedRequest
      bodies.push(body)
      const thinking = body.thinking?.type !== 'disabled'
      if (thinking && !keepsReasoning(body)) {
        refused.push(bodies.length - 1)
        response.writeHead(400, { 'content-type': 'application/json' })
        const error = { message: MISSING_REASONING, type: 'invalid_request_error' }
        return void response.end(JSON.stringify({ error }))
      }
      const served = refusedFree(bodies.length, refused)
      const reasoning = thinking ? [sse({ reasoning_content: `Thinking ${served}.` })] : []
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(`${[...reasoning, ...(answers[served] ?? [])].join('')}data: [DONE]\n\n`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { bodies, refused, url: `http://127.0.0.1:${port}/v1`, close: () => server.close() }
}

/** The index of the answer for the latest request: requests refused take no answer. */
function refusedFree(requests: number, refused: number[]): number {
  return requests - 1 - refused.length
}
