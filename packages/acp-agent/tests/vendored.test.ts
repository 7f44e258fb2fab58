// What the BUILT bundle loads from beside it, over the bin's real stdio: undici, built into
// dist/vendor/undici.cjs and required at the first web request (here a web search through a
// SearXNG instance on 127.0.0.1, which the guard lets through as the person's own endpoint).
// The YAML parser's file is exercised by the skills over the bin (knowledge.test.ts).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { choose } from '@deepseek-ai/dsh-acp-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { openLiveSession } from './helpers/live-session'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-vendored')
const asked: string[] = []
const searxng = createServer((req, res) => {
  asked.push(req.url ?? '')
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(
    JSON.stringify({
      results: [{ title: 'Streams', url: 'https://nodejs.org/api/stream.html', content: 'Flow.' }],
    }),
  )
})

beforeAll(async () => {
  await new Promise<void>((done) => searxng.listen(0, '127.0.0.1', done))
  await ensureBuilt()
}, 420_000)
afterAll(() => new Promise<void>((done) => searxng.close(() => done())))

/** The links a card shows (the sources a search found). */
function linksOf(update: SessionUpdate): string[] {
  if (update.sessionUpdate !== 'tool_call_update') return []
  return (update.content ?? []).flatMap((block) =>
    block.type === 'content' && block.content.type === 'resource_link' ? [block.content.uri] : [],
  )
}

describe('the bundle with its vendored files', () => {
  it('a web search goes out through undici loaded from dist/vendor', async () => {
    const origin = `http://127.0.0.1:${(searxng.address() as AddressInfo).port}`
    const call = { id: 's1', name: 'web_search', arguments: { query: 'node streams' } }
    const live = await openLiveSession({
      script: { turns: [{ toolCalls: [call] }, { text: 'Done.' }] },
      workspace: await tempDir('work'),
      home: await tempDir('home'),
      args: ['--web-search-url', origin, '--mode', 'full-access'],
      answer: choose('allow_once'),
    })
    const answer = await live.prompt('search')
    expect(answer.stopReason).toBe('end_turn')
    expect(new URL(asked[0] ?? '', origin).searchParams.get('q')).toBe('node streams')
    const done = live.updates.filter(
      (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'completed',
    )
    expect(done.flatMap(linksOf)).toEqual(['https://nodejs.org/api/stream.html'])
    expect(await live.close()).toBe(0)
  }, 60_000)
})
