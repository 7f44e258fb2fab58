// What the BUILT bundle loads from beside it (dist/vendor/), over the bin's real stdio: undici
// at the first web request (here a web search through a SearXNG instance on 127.0.0.1, which the
// guard lets through as the person's own endpoint), and vscode-jsonrpc at the first language
// server (an edit that breaks a type, checked by the real typescript-language-server). The YAML
// parser's file is exercised by the skills over the bin (knowledge.test.ts).
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
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

  it('an edit that breaks a type is told so by a language server spoken to through vscode-jsonrpc', async () => {
    const workspace = await tempDir('work')
    const tsconfig = { compilerOptions: { strict: true, noEmit: true, module: 'esnext' } }
    await writeFile(join(workspace, 'tsconfig.json'), JSON.stringify(tsconfig))
    await writeFile(join(workspace, 'count.ts'), 'export const count: number = 1\n')
    const typescript = dirname(createRequire(import.meta.url).resolve('typescript/package.json'))
    await mkdir(join(workspace, 'node_modules'))
    await symlink(typescript, join(workspace, 'node_modules', 'typescript'))
    const file = join(workspace, 'count.ts')
    const edit = { file_path: file, old_string: '= 1', new_string: "= 'one'" }
    const live = await openLiveSession({
      script: {
        turns: [
          { toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: file } }] },
          { toolCalls: [{ id: 'e1', name: 'edit', arguments: edit }] },
          { text: 'Done.' },
        ],
      },
      workspace,
      home: await tempDir('home'),
      args: ['--mode', 'full-access'],
      answer: choose('allow_once'),
    })
    const answer = await live.prompt('break it')
    expect(answer.stopReason).toBe('end_turn')
    const edited = live.updates.find(
      (update) =>
        update.sessionUpdate === 'tool_call_update' &&
        update.toolCallId === 'e1' &&
        update.status === 'completed',
    )
    expect(edited).toMatchObject({ title: 'Edited count.ts (1 new error)' })
    expect(JSON.stringify(edited)).toContain(
      "count.ts:1:14 error TS2322: Type 'string' is not assignable to type 'number'.",
    )
    expect(await live.close()).toBe(0)
  }, 120_000)
})
