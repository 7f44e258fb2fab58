// A loaded session shows its tasks as they went: the task card as it ended (the delegate's
// calls and its report), then the delegate's own cards stored under it, nested as they were
// live (wire ids `<child>/<call>`, `_meta.dsh.parentToolCallId` the task card's); to a client
// that shows subagent sessions, the delegate announced on the parent's session (its final state
// in it) and its thread replayed on its own session. Every frame valid against the schema the
// client negotiated.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { FileSessionStore } from '@deepseek-ai/dsh-session-store'
import { afterEach, describe, expect, it } from 'vitest'
import type { AcpHarness } from '../src/harness'
import { chunkText, useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

const script = {
  turns: [
    {
      toolCalls: [
        { id: 't1', name: 'task', arguments: { description: 'look', prompt: 'Read a.txt.' } },
      ],
    },
    { toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'a.txt' } }] },
    { text: 'a.txt says a.' },
    { text: 'Done.' },
  ],
}

/** A stored session whose task's delegate read a.txt and reported; closed, ready to load. */
async function storedTask(
  store: FileSessionStore,
): Promise<{ id: string; cwd: string; live: SessionUpdate[] }> {
  const harness = await makeHarness({
    withFs: true,
    withTask: true,
    mode: 'full-access',
    store,
    script,
  })
  await writeFile(join(harness.workspace, 'a.txt'), 'a\n')
  const id = await harness.newSession()
  expect((await harness.prompt(id, 'delegate it')).stopReason).toBe('end_turn')
  const live = harness.updatesOf(id)
  await harness.agent.request('session/close', { sessionId: id })
  return { id, cwd: harness.workspace, live }
}

/** Loads session `sessionId` of workspace `cwd` (another harness's) on `harness`. */
async function load(harness: AcpHarness, sessionId: string, cwd: string): Promise<void> {
  await harness.agent.request('session/load', { sessionId, cwd, mcpServers: [] })
}

const cardsOf = (updates: readonly SessionUpdate[]) =>
  updates.flatMap((u) =>
    u.sessionUpdate === 'tool_call' ? [{ id: u.toolCallId, status: u.status, meta: u._meta }] : [],
  )

async function newStore(): Promise<FileSessionStore> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-task-replay-')))
  dirs.push(dir)
  return new FileSessionStore({ dir, warn: () => undefined })
}

describe('a loaded session with a task', () => {
  it("replays the task card as it ended, then the delegate's cards nested as they were live", async () => {
    const store = await newStore()
    const { id, cwd, live } = await storedTask(store)
    const liveChild = cardsOf(live).find((card) => card.id.endsWith('/r1'))!.id

    const harness = await makeHarness({
      withFs: true,
      withTask: true,
      store,
      script: { turns: [] },
    })
    await load(harness, id, cwd)
    const replayed = harness.updatesOf(id)
    expect(cardsOf(replayed)).toEqual([
      { id: 't1', status: 'completed', meta: undefined },
      { id: liveChild, status: 'completed', meta: { dsh: { parentToolCallId: 't1' } } },
    ])
    const task = replayed.find((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 't1')
    expect(JSON.stringify(task)).toContain('✓ Read a.txt\\n\\na.txt says a.')
    expect(chunkText(replayed)).toBe('Done.')
    expect(harness.subagentUpdates).toEqual([])
  })

  it("replays to a client that shows subagents the delegate's announcement and its thread", async () => {
    const store = await newStore()
    const { id, cwd } = await storedTask(store)

    const harness = await makeHarness({
      withFs: true,
      withTask: true,
      subagents: true,
      store,
      script: { turns: [] },
    })
    await load(harness, id, cwd)
    expect(harness.subagentUpdates).toHaveLength(1)
    const [announced] = harness.subagentUpdates
    const update = announced!.update
    const childId = update.sessionUpdate === 'subagent_update' ? update.sessionId : ''
    expect(announced).toEqual({
      sessionId: id,
      update: {
        sessionUpdate: 'subagent_update',
        sessionId: childId,
        title: 'look',
        cwd,
        state: { state: 'idle', stopReason: 'end_turn' },
        _meta: { dsh: { parentToolCallId: 't1' } },
      },
    })
    // The parent's thread keeps only its own card; the delegate's is on its session.
    expect(cardsOf(harness.updatesOf(id)).map((card) => card.id)).toEqual(['t1'])
    const child = harness.updatesOf(childId)
    expect(child[0]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'Read a.txt.' },
    })
    expect(cardsOf(child)).toEqual([{ id: 'r1', status: 'completed', meta: undefined }])
    expect(chunkText(child)).toBe('a.txt says a.')
    // The announcement (on the parent's session) went out before the delegate's own frames.
    const named = harness
      .agentFrames()
      .map((frame) => (frame.message as { params?: { sessionId?: string } }).params?.sessionId)
    const announcedAt = harness.agentFrames().findIndex((f) => f.text.includes('"subagent_update"'))
    const firstChild = named.indexOf(childId)
    expect(announcedAt).toBeLessThan(firstChild)
  })
})
