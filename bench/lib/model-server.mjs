// An OpenAI-compatible model server on 127.0.0.1 for the long-session and task benchmarks: it
// counts a request's tokens as UTF-8 bytes / 3 of its messages and tools, refuses one over its
// window (400, as DeepSeek words it), reports usage with prompt-cache hits (the tokens of the
// prefix shared with the request before), answers a compaction's summary request with a short
// summary, and otherwise answers the n-th request with `next(n, body)` (an answer with
// `delayMs` is sent that long after the request came). Records every request.
import { createServer } from 'node:http'

const tokensOf = (messages, tools = []) =>
  Math.ceil(Buffer.byteLength(JSON.stringify([messages, tools])) / 3)

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`

function sharedMessages(before, after) {
  if (!before) return 0
  let shared = 0
  while (shared < before.length && shared < after.length) {
    if (JSON.stringify(before[shared]) !== JSON.stringify(after[shared])) break
    shared += 1
  }
  return shared
}

export async function startModelServer({ window, next }) {
  const requests = []
  let answered = 0
  let previous
  const server = createServer((req, res) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (piece) => (raw += piece))
    req.on('end', () => {
      if (req.method === 'GET') {
        res.writeHead(404).end()
        return
      }
      const body = JSON.parse(raw)
      const tokens = tokensOf(body.messages, body.tools)
      const summary = String(body.messages[0]?.content ?? '').startsWith('You compact')
      const shared = summary ? 0 : sharedMessages(previous, body.messages)
      const record = {
        tokens,
        summary,
        refused: tokens > window,
        messages: body.messages.length,
        keptPrefix: previous !== undefined && !summary && shared === previous.length,
      }
      requests.push(record)
      if (record.refused) {
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            error: {
              message: `This model's maximum context length is ${window} tokens. However, you requested ${tokens} tokens.`,
            },
          }),
        )
        return
      }
      const cached = summary ? 0 : tokensOf(body.messages.slice(0, shared))
      record.cached = cached
      if (!summary) previous = body.messages
      const answer = summary
        ? { text: '- the person asked for changes; files were read' }
        : next(answered++, body)
      let text = answer.text ? chunk({ content: answer.text }) : ''
      ;(answer.calls ?? []).forEach((call, index) => {
        const fn = { name: call.name, arguments: JSON.stringify(call.arguments) }
        text += chunk({
          tool_calls: [{ index, id: `c${answered}_${index}`, type: 'function', function: fn }],
        })
      })
      text += chunk({}, answer.calls?.length ? 'tool_calls' : 'stop')
      const usage = {
        prompt_tokens: tokens,
        completion_tokens: 20,
        prompt_cache_hit_tokens: cached,
      }
      text += `data: ${JSON.stringify({ choices: [], usage })}\n\ndata: [DONE]\n\n`
      const send = () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.end(text)
      }
      if (answer.delayMs > 0) setTimeout(send, answer.delayMs)
      else send()
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(resolve)
      }),
  }
}
