// Sessions that outlive their connection, over the real SDK client with a store on disk:
// session/list shows them, session/load replays every card as it was sent the first time and
// the session goes on, session/resume goes on without the replay, session/close frees it, and
// each bad request is refused with a code and a message saying what was wrong.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
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

async function storeDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-sessions-')))
  dirs.push(dir)
  return dir
}

const read = { id: 'r1', name: 'read', arguments: { file_path: 'a.txt' } }
const edit = {
  id: 'e1',
  name: 'edit',
  arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' },
}
const script = {
  turns: [
    { reasoning: 'Look first.', text: 'Reading.', toolCalls: [read] },
    { toolCalls: [edit] },
    { text: 'Edited.' },
    { toolCalls: [{ ...edit, id: 'e2' }] },
    { text: 'After the load.' },
  ],
}

/**
 * The cards and messages of a session's updates, as a person sees them at the end: the chunks
 * of one message (or thought) in a row read as one text, and each card in the state its last
 * update left it.
 */
function shown(updates: readonly SessionUpdate[]): SessionUpdate[] {
  const seen: SessionUpdate[] = []
  const cards = new Map<string, number>()
  for (const update of updates) {
    const last = seen.at(-1)
    if (update.sessionUpdate === 'tool_call') {
      cards.set(update.toolCallId, seen.length)
      seen.push(update)
    } else if (update.sessionUpdate === 'tool_call_update') {
      const at = cards.get(update.toolCallId)
      if (at === undefined) continue
      const { sessionUpdate: _update, ...changes } = update
      seen[at] = { ...seen[at], ...changes } as SessionUpdate
    } else if (
      update.sessionUpdate === 'agent_message_chunk' ||
      update.sessionUpdate === 'agent_thought_chunk'
    ) {
      if (
        last?.sessionUpdate === update.sessionUpdate &&
        last.content.type === 'text' &&
        update.content.type === 'text'
      ) {
        const text = last.content.text + update.content.text
        seen[seen.length - 1] = { ...last, content: { type: 'text', text } }
      } else {
        seen.push(update)
      }
    }
  }
  return seen
}

async function firstSession(harness: AcpHarness): Promise<string> {
  await writeFile(join(harness.workspace, 'a.txt'), 'one\ntwo\n')
  const sessionId = await harness.newSession()
  await harness.prompt(sessionId, 'Fix the first line\nplease')
  return sessionId
}

describe('a stored session', () => {
  it('is listed, and loading it replays every card as it went, then the session goes on', async () => {
    const store = new FileSessionStore({ dir: await storeDir(), warn: () => undefined })
    const harness = await makeHarness({ withFs: true, store, script })
    const sessionId = await firstSession(harness)
    const original = harness.updatesOf(sessionId)
    await harness.agent.request('session/close', { sessionId })
    const list = await harness.agent.request('session/list', { cwd: harness.workspace })
    expect(list.sessions).toEqual([
      {
        sessionId,
        cwd: harness.workspace,
        title: 'Fix the first line',
        updatedAt: expect.any(String),
      },
    ])
    const before = harness.updates.length
    const loaded = await harness.agent.request('session/load', {
      sessionId,
      cwd: harness.workspace,
      mcpServers: [],
    })
    expect(loaded.modes?.currentModeId).toBe('ask')
    const replayed = harness.updates.slice(before).map((n) => n.update)
    expect(replayed[0]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'Fix the first line\nplease' },
    })
    expect(shown(replayed)).toEqual(shown(original))
    // Each card is replayed once, in the state it ended in.
    const calls = replayed.filter((update) => update.sessionUpdate === 'tool_call')
    expect(calls.map((call) => [call.toolCallId, call.status])).toEqual([
      ['r1', 'completed'],
      ['e1', 'completed'],
    ])
    expect(replayed.some((update) => update.sessionUpdate === 'tool_call_update')).toBe(false)
    // The session goes on: the edit after the load is refused until the file is read again.
    await harness.prompt(sessionId, 'edit again')
    const events = harness.ctx.agents.get(sessionId)?.session.events ?? []
    const last = events.findLast((event) => event.type === 'tool/result')
    expect(last).toMatchObject({ callId: 'e2', error: { code: 'FS_NOT_OBSERVED' } })
  })

  it('resume goes on without the replay', async () => {
    const store = new FileSessionStore({ dir: await storeDir(), warn: () => undefined })
    const harness = await makeHarness({ withFs: true, store, script })
    const sessionId = await firstSession(harness)
    await harness.agent.request('session/close', { sessionId })
    const before = harness.updates.length
    await harness.agent.request('session/resume', { sessionId, cwd: harness.workspace })
    expect(harness.updates.length).toBe(before)
    expect(harness.ctx.agents.get(sessionId)?.session.events.length).toBeGreaterThan(0)
  })

  it('is refused when unknown, live here already, or loaded with another cwd', async () => {
    const store = new FileSessionStore({ dir: await storeDir(), warn: () => undefined })
    const harness = await makeHarness({ withFs: true, store, script })
    const sessionId = await firstSession(harness)
    const load = (id: string, cwd = harness.workspace) =>
      harness.agent
        .request('session/load', { sessionId: id, cwd, mcpServers: [] })
        .catch((error: unknown) => error)
    expect(await load('no-such-session')).toMatchObject({ code: -32002 })
    const live = await load(sessionId)
    expect(live).toMatchObject({ code: -32600 })
    expect((live as Error).message).toContain('already live on this connection')
    await harness.agent.request('session/close', { sessionId })
    const elsewhere = await load(sessionId, '/tmp')
    expect(elsewhere).toMatchObject({ code: -32602 })
    expect((elsewhere as Error).message).toContain(harness.workspace)
    expect((elsewhere as Error).message).toContain('/tmp')
    // Refused without taking it: it loads with the right cwd.
    expect(await load(sessionId)).toMatchObject({ modes: { currentModeId: 'ask' } })
    // The SDK's client takes a close of an unknown session as done; the wire says -32002.
    await harness.agent.request('session/close', { sessionId: 'nope' })
    const reply = harness.agentFrames().findLast((frame) => frame.method === 'session/close')
    expect(reply?.message).toMatchObject({ error: { code: -32002 } })
  })

  it('without a store, loading is not advertised and a load finds nothing', async () => {
    const harness = await makeHarness({ withFs: true, script })
    expect(harness.initialized.agentCapabilities?.loadSession).toBe(false)
    const refused = await harness.agent
      .request('session/load', { sessionId: 'x', cwd: harness.workspace, mcpServers: [] })
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32002 })
    expect(await harness.agent.request('session/list', {})).toEqual({ sessions: [] })
  })
})
