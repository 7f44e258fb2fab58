// The web tools over the real SDK client with the real stack and real HTTP servers on
// 127.0.0.1: web_fetch cards (`Fetch <url>`, kind fetch, status and size, the Markdown),
// the question naming the host and "always allow" covering that host only, private targets
// refused before anything is asked or sent, and web_search against a fake SearXNG (the query
// it got, the sources on the card). Every frame is checked against the ACP schema.
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { choose } from '../src/client'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const servers: ReturnType<typeof createServer>[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections()
      return new Promise((done) => server.close(done))
    }),
  )
})

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: string[] = []
  let connections = 0
  const server = createServer((req, res) => {
    seen.push(req.url ?? '')
    handler(req, res)
  })
  server.on('connection', () => connections++)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  servers.push(server)
  const port = (server.address() as AddressInfo).port
  return { port, seen, connections: () => connections }
}

const PAGE =
  '<html><head><title>Guide</title></head><body><h1>Migrate</h1>' +
  '<p>See <a href="https://example.org/notes">the notes</a>.</p>' +
  '<table><tr><th>From</th><th>To</th></tr><tr><td>v1</td><td>v2</td></tr></table></body></html>'

type Call = { id: string; name: string; arguments: Record<string, unknown> }
const script = (...calls: Call[]) => ({
  turns: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }],
})

type CardUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>
function cardOf(updates: readonly SessionUpdate[], id: string): CardUpdate[] {
  return updates.filter(
    (update): update is CardUpdate =>
      (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
      update.toolCallId === id,
  )
}

function textsOf(update: CardUpdate | undefined): string[] {
  return (update?.content ?? []).flatMap((block) =>
    block.type === 'content' && block.content.type === 'text' ? [block.content.text] : [],
  )
}

describe('web_fetch', () => {
  it('asks naming the origin, remembers it for that origin only, and shows status, size and markdown', async () => {
    const site = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(PAGE)
    })
    const otherPort = await serve((_req, res) => res.end('another service'))
    const first = `http://127.0.0.1:${site.port}/guide`
    const again = `http://127.0.0.1:${site.port}/other`
    const elsewhere = `http://localhost:${site.port}/guide`
    const anotherPort = `http://127.0.0.1:${otherPort.port}/admin`
    const harness = await makeHarness({
      withFs: true,
      web: { allowPrivate: true },
      answer: choose('allow_always'),
      script: script(
        { id: 'f1', name: 'web_fetch', arguments: { url: first } },
        { id: 'f2', name: 'web_fetch', arguments: { url: again } },
        { id: 'f3', name: 'web_fetch', arguments: { url: elsewhere } },
        { id: 'f4', name: 'web_fetch', arguments: { url: anotherPort } },
      ),
    })
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'read the guide')).toEqual({ stopReason: 'end_turn' })

    // Asked for 127.0.0.1:port, not again for it, asked anew for localhost and another port.
    const asked = harness.permissionRequests
    const origin = `http://127.0.0.1:${site.port}`
    expect(asked.map((request) => request.toolCall.toolCallId)).toEqual(['f1', 'f3', 'f4'])
    expect(asked[0]!.options.map((option) => option.name)).toEqual([
      'Allow',
      `Always allow fetching from ${origin}`,
      'Reject',
    ])
    expect(asked[0]!.toolCall.title).toBe(`Fetch ${first}`)
    expect(JSON.stringify(asked[0]!.toolCall.content)).toContain(`Allow fetching from ${origin}?`)
    expect(asked[1]!.options[1]!.name).toBe(
      `Always allow fetching from http://localhost:${site.port}`,
    )
    expect(asked[2]!.options[1]!.name).toBe(
      `Always allow fetching from http://127.0.0.1:${otherPort.port}`,
    )
    expect(site.seen).toEqual(['/guide', '/other', '/guide'])
    expect(otherPort.seen).toEqual(['/admin'])

    const card = cardOf(harness.updatesOf(sessionId), 'f2')
    expect(card[0]).toMatchObject({
      title: `Fetch ${again}`,
      kind: 'fetch',
      rawInput: { url: again },
    })
    // The card's content is for the person: never its arguments as JSON.
    expect(card[0]!.content).toBeUndefined()
    expect(JSON.stringify(asked[0]!.toolCall.content)).not.toContain('{\\"url\\"')
    const done = card.at(-1)
    expect(done?.status).toBe('completed')
    const [status, markdown] = textsOf(done)
    expect(status).toBe(`200 OK · ${PAGE.length} B · text/html`)
    expect(markdown).toContain('# Migrate')
    expect(markdown).toContain('[the notes](https://example.org/notes)')
    expect(markdown).toMatch(/\| From \| To \|/)
  })

  it('refuses loopback without the flag before anyone is asked or any byte is sent', async () => {
    const site = await serve((_req, res) => res.end('secret'))
    const harness = await makeHarness({
      withFs: true,
      web: {},
      script: script(
        { id: 'p1', name: 'web_fetch', arguments: { url: `http://127.0.0.1:${site.port}/` } },
        { id: 'p2', name: 'web_fetch', arguments: { url: `http://[::1]:${site.port}/` } },
        { id: 'p3', name: 'web_fetch', arguments: { url: 'http://169.254.169.254/latest/' } },
      ),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'fetch it')
    expect(harness.permissionRequests).toEqual([])
    for (const id of ['p1', 'p2', 'p3']) {
      const done = cardOf(harness.updatesOf(sessionId), id).at(-1)
      expect(done?.status).toBe('failed')
      expect(done?.rawOutput).toEqual({ error: { name: 'WebError', code: 'WEB_PRIVATE_ADDRESS' } })
    }
    expect(site.connections()).toBe(0)
  })
})

describe('web_search', () => {
  it('sends the query to searxng and lists the sources on the card', async () => {
    const searx = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          results: [
            { title: 'Undici docs', url: 'https://undici.nodejs.org/', content: 'An HTTP client.' },
            {
              title: 'Node fetch',
              url: 'https://nodejs.org/api/globals.html#fetch',
              content: 'Global fetch.',
            },
          ],
        }),
      )
    })
    const harness = await makeHarness({
      withFs: true,
      web: { searxngUrl: `http://127.0.0.1:${searx.port}` },
      mode: 'full-access',
      script: script({ id: 's1', name: 'web_search', arguments: { query: 'undici proxy agent' } }),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'search')
    const asked = new URL(searx.seen[0]!, 'http://x')
    expect(asked.searchParams.get('q')).toBe('undici proxy agent')
    const card = cardOf(harness.updatesOf(sessionId), 's1')
    expect(card[0]).toMatchObject({ title: 'undici proxy agent', kind: 'search' })
    expect(card.at(-1)?.content).toEqual([
      {
        type: 'content',
        content: { type: 'resource_link', uri: 'https://undici.nodejs.org/', name: 'Undici docs' },
      },
      {
        type: 'content',
        content: {
          type: 'resource_link',
          uri: 'https://nodejs.org/api/globals.html#fetch',
          name: 'Node fetch',
        },
      },
    ])
  })

  it('is asked once per session in ask mode', async () => {
    const searx = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"results":[]}')
    })
    const harness = await makeHarness({
      withFs: true,
      web: { searxngUrl: `http://127.0.0.1:${searx.port}` },
      answer: choose('allow_always'),
      script: script(
        { id: 's1', name: 'web_search', arguments: { query: 'one' } },
        { id: 's2', name: 'web_search', arguments: { query: ['two', 'three'] } },
      ),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'search twice')
    expect(harness.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual(['s1'])
    expect(harness.permissionRequests[0]!.options[1]!.name).toBe(
      'Always allow web searches in this session',
    )
    expect(searx.seen).toHaveLength(3)
  })

  it('is not offered without a provider', async () => {
    const harness = await makeHarness({
      withFs: true,
      web: {},
      script: { turns: [{ text: 'ok' }] },
    })
    expect(harness.ctx.tools.get('web_search')).toBeUndefined()
    expect(harness.ctx.tools.get('web_fetch')).toBeDefined()
  })
})
