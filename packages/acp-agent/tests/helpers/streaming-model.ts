// An OpenAI-compatible model on 127.0.0.1 that streams slowly, as a real one does: each answer
// is `pieces` text deltas, one every `intervalMs`, then (to a request whose last message is the
// person's) the tool call `call`, else the end of the answer. It stops writing when
// the agent goes away mid-answer. For the tests of an editor that goes away mid-turn.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sse } from './recording-server'

export interface StreamingModelOptions {
  pieces: number
  intervalMs: number
  /** The tool the first answer to each prompt calls (none: text only). */
  call?: { name: string; arguments: object }
}

export interface StreamingModel {
  /** The base URL to give the bin (`--base-url`). */
  url: string
  /** Requests begun so far. */
  requests(): number
  close(): Promise<void>
}

export async function startStreamingModel(options: StreamingModelOptions): Promise<StreamingModel> {
  let requests = 0
  const server = createServer((request, response) => {
    if (request.method === 'GET') return void response.writeHead(404).end()
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => {
      requests += 1
      const messages = (JSON.parse(body) as { messages: { role: string }[] }).messages
      const prompted = messages.at(-1)?.role === 'user'
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      let sent = 0
      const timer = setInterval(() => {
        if (response.destroyed) return void clearInterval(timer)
        if (sent < options.pieces) {
          response.write(sse({ content: `piece ${sent} of the answer. ` }))
          sent += 1
          return
        }
        clearInterval(timer)
        if (prompted && options.call !== undefined) {
          const fn = { name: options.call.name, arguments: JSON.stringify(options.call.arguments) }
          const call = { index: 0, id: `call_${requests}`, type: 'function', function: fn }
          response.end(`${sse({ tool_calls: [call] })}${sse({}, 'tool_calls')}data: [DONE]\n\n`)
        } else {
          response.end(`${sse({}, 'stop')}data: [DONE]\n\n`)
        }
      }, options.intervalMs)
      response.on('close', () => clearInterval(timer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
