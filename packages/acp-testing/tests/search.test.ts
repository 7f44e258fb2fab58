// The search tools over the real SDK client with the real stack: glob and grep cards (titles,
// kind `search`, the files found as locations with their first match's line, never a
// directory, the result text as content), the permission layer judging a search by its root
// (inside the workspace it runs unasked in ask mode; outside it is asked), and a stored session
// replaying the same cards on session/load. Every frame is checked against the ACP schema.
import { mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { FileSessionStore } from '@deepseek-ai/dsh-session-store'
import { afterEach, describe, expect, it } from 'vitest'
import type { AcpHarness } from '../src/harness'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  dirs.push(dir)
  return dir
}

type Call = { id: string; name: string; arguments: Record<string, unknown> }
const script = (...calls: Call[]) => ({
  turns: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }],
})

type CardUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>

function cardOf(updates: readonly SessionUpdate[], toolCallId: string): CardUpdate[] {
  return updates.filter(
    (update): update is CardUpdate =>
      (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
      update.toolCallId === toolCallId,
  )
}

async function seed(harness: AcpHarness): Promise<void> {
  const root = harness.workspace
  await mkdir(join(root, 'src/deep'), { recursive: true })
  await writeFile(join(root, 'src/app.ts'), 'import x\nconst retry = 3\n')
  await writeFile(join(root, 'src/deep/util.ts'), 'a\nb\nfunction retry() {}\n')
  await writeFile(join(root, 'README.md'), 'retry docs\n')
}

const grepCall: Call = {
  id: 'g1',
  name: 'grep',
  arguments: { pattern: 'retry', path: 'src', glob: '*.ts', output_mode: 'content' },
}
const globCall: Call = { id: 'f1', name: 'glob', arguments: { pattern: '**/*.ts' } }

describe('search cards', () => {
  it('grep and glob show titled search cards located at the files found, unasked in ask mode', async () => {
    const harness = await makeHarness({ withFs: true, script: script(grepCall, globCall) })
    await seed(harness)
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'find the retry logic')).toEqual({
      stopReason: 'end_turn',
    })
    expect(harness.permissionRequests).toEqual([])
    const root = harness.workspace
    const grep = cardOf(harness.updatesOf(sessionId), 'g1')
    expect(grep.map((update) => update.status)).toEqual(['in_progress', 'completed'])
    // While it runs, the card says what it looks for, not only the mode.
    expect(grep[0]).toMatchObject({
      title: 'Search retry in src (*.ts)',
      kind: 'search',
      content: [{ type: 'content', content: { type: 'text', text: 'pattern: retry, content' } }],
    })
    expect(grep[0]).not.toHaveProperty('locations')
    const text = 'src/app.ts:2:const retry = 3\nsrc/deep/util.ts:3:function retry() {}'
    expect(grep[1]).toMatchObject({
      locations: [
        { path: join(root, 'src/app.ts'), line: 2 },
        { path: join(root, 'src/deep/util.ts'), line: 3 },
      ],
      content: [{ type: 'content', content: { type: 'text', text } }],
    })
    const glob = cardOf(harness.updatesOf(sessionId), 'f1')
    expect(glob[0]).toMatchObject({ title: 'Find **/*.ts', kind: 'search' })
    const located = glob[1]?.locations ?? []
    expect(located.map((location) => location.path).sort()).toEqual([
      join(root, 'src/app.ts'),
      join(root, 'src/deep/util.ts'),
    ])
    for (const location of [...located, ...(grep[1]?.locations ?? [])]) {
      expect((await stat(location.path)).isFile(), location.path).toBe(true)
    }
  })

  it('a search rooted outside the workspace is asked, then runs', async () => {
    const outside = await tempDir('dsh-search-outside-')
    await writeFile(join(outside, 'far.ts'), 'retry\n')
    const call: Call = { id: 'o1', name: 'grep', arguments: { pattern: 'retry', path: outside } }
    const harness = await makeHarness({ withFs: true, script: script(call, grepCall) })
    await seed(harness)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'look outside')
    expect(harness.permissionRequests).toHaveLength(1)
    expect(harness.permissionRequests[0]?.toolCall).toMatchObject({
      toolCallId: 'o1',
      title: `Search retry in ${outside}`,
      kind: 'search',
    })
    const card = cardOf(harness.updatesOf(sessionId), 'o1')
    expect(card.map((update) => update.status)).toEqual(['pending', 'in_progress', 'completed'])
    expect(card[2]?.locations).toEqual([{ path: join(outside, 'far.ts'), line: 1 }])
  })

  it('a stored session replays the search cards on session/load', async () => {
    const store = new FileSessionStore({ dir: await tempDir('dsh-sessions-'), warn: () => {} })
    const harness = await makeHarness({ withFs: true, store, script: script(grepCall, globCall) })
    await seed(harness)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'find the retry logic')
    type Card = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>
    const cards = (updates: readonly SessionUpdate[]) =>
      updates.filter((update): update is Card => update.sessionUpdate.startsWith('tool_call'))
    const original = cards(harness.updatesOf(sessionId))
    await harness.agent.request('session/close', { sessionId })
    const before = harness.updates.length
    await harness.agent.request('session/load', {
      sessionId,
      cwd: harness.workspace,
      mcpServers: [],
    })
    const replayed = cards(harness.updates.slice(before).map((n) => n.update))
    // Each card is replayed once, as it ended: the live opening with every update applied.
    const ended = new Map<string, Record<string, unknown>>()
    for (const { sessionUpdate: _kind, ...fields } of original) {
      ended.set(fields.toolCallId, { ...ended.get(fields.toolCallId), ...fields })
    }
    expect(replayed).toEqual(
      [...ended.values()].map((card) => ({ sessionUpdate: 'tool_call', ...card })),
    )
    expect(replayed.every((update) => 'locations' in update && update.locations?.length)).toBe(true)
  })
})
