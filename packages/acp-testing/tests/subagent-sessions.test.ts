// ACP's unstable subagent sessions over the bridge. A client that advertises
// `clientCapabilities.subagents` gets each delegate announced on its parent's session (title,
// cwd, the task card that started it) before any update of the delegate's own, then the
// delegate's thread on its own session id (its prompt, its cards, its answer), its questions
// asked there, and its work state on the parent's; the parent's thread keeps only the task
// card. A client without it gets none of this: no subagent update, no frame naming the
// delegate's session. Every frame valid against the schema the client negotiated (the
// unstable one, or the stable one).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AcpHarness } from '../src/harness'
import { chunkText, slowTool, useAcpHarness } from './helpers/harness'
import { noteTaskScript } from './helpers/task-scripts'

const makeHarness = useAcpHarness()

const script = noteTaskScript

/** The session ids the agent's frames name (`params.sessionId`), in order of first mention. */
function sessionsNamed(harness: AcpHarness): string[] {
  const ids: string[] = []
  for (const frame of harness.agentFrames()) {
    const params = (frame.message as { params?: { sessionId?: unknown } } | undefined)?.params
    const id = params?.sessionId
    if (typeof id === 'string' && !ids.includes(id)) ids.push(id)
  }
  return ids
}

describe('a client that shows subagent sessions', () => {
  it("gets the delegate announced first, its thread and question on its own session, its state on the parent's", async () => {
    const harness = await makeHarness({ withFs: true, withTask: true, subagents: true, script })
    const parentId = await harness.newSession()
    expect((await harness.prompt(parentId, 'delegate it')).stopReason).toBe('end_turn')
    expect(await readFile(join(harness.workspace, 'note.txt'), 'utf8')).toBe('hi\n')

    const [announced, ...states] = harness.subagentUpdates
    const childId =
      announced!.update.sessionUpdate === 'subagent_update' ? announced!.update.sessionId : ''
    expect(announced).toEqual({
      sessionId: parentId,
      update: {
        sessionUpdate: 'subagent_update',
        sessionId: childId,
        title: 'write a note',
        cwd: harness.workspace,
        _meta: { dsh: { parentToolCallId: 't1' } },
      },
    })
    expect(states.map((s) => [s.sessionId, JSON.stringify(s.update)])).toEqual(
      [
        { state: 'running' },
        { state: 'requires_action' },
        { state: 'running' },
        { state: 'idle', stopReason: 'end_turn' },
      ].map((state) => [
        parentId,
        JSON.stringify({ sessionUpdate: 'subagent_update', sessionId: childId, state }),
      ]),
    )
    // The announcement went out before any frame naming the delegate's session.
    expect(sessionsNamed(harness)).toEqual([parentId, childId])
    const frames = harness.agentFrames()
    const announcedAt = frames.findIndex((f) => f.text.includes('"subagent_update"'))
    const firstOwn = frames.findIndex(
      (f) => f.text.includes(`"sessionId":"${childId}"`) && !f.text.includes('"subagent_update"'),
    )
    expect(announcedAt).toBeGreaterThanOrEqual(0)
    expect(announcedAt).toBeLessThan(firstOwn)

    // The delegate's thread on its own session: its prompt, its card (its own ids), its answer.
    const child = harness.updatesOf(childId)
    expect(child[0]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'Write note.txt saying hi.' },
    })
    const cards = child.flatMap((u) =>
      u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update'
        ? [[u.sessionUpdate, u.toolCallId, u.status, u._meta]]
        : [],
    )
    expect(cards).toEqual([
      ['tool_call', 'w1', 'pending', undefined],
      ['tool_call_update', 'w1', 'in_progress', undefined],
      ['tool_call_update', 'w1', 'completed', undefined],
    ])
    expect(chunkText(child)).toBe('Wrote note.txt.')
    // Its question was asked on its own session, about its own card.
    expect(harness.permissionRequests.map((r) => [r.sessionId, r.toolCall.toolCallId])).toEqual([
      [childId, 'w1'],
    ])
    // The parent's thread keeps the task card, grown as before, and none of the delegate's.
    const parent = harness.updatesOf(parentId)
    const parentCards = parent.flatMap((u) =>
      u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update'
        ? [u.toolCallId]
        : [],
    )
    expect(new Set(parentCards)).toEqual(new Set(['t1']))
    const closed = parent.find(
      (u) =>
        u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't1' && u.status === 'completed',
    )
    expect(JSON.stringify(closed)).toContain('✓ Write note.txt\\n\\nWrote note.txt.')
  })
})

describe('a cancelled delegate', () => {
  it("ends idle and cancelled on the parent's session when the parent's turn is cancelled", async () => {
    const slow = slowTool()
    const harness = await makeHarness({
      withTask: true,
      subagents: true,
      mode: 'full-access',
      setup: slow.register,
      script: {
        turns: [
          {
            toolCalls: [
              { id: 't1', name: 'task', arguments: { description: 'wait', prompt: 'Wait.' } },
            ],
          },
          { toolCalls: [{ id: 's1', name: 'slow', arguments: {} }] },
          { text: 'never' },
        ],
      },
    })
    const parentId = await harness.newSession()
    const prompt = harness.prompt(parentId, 'delegate it')
    await slow.started
    await harness.cancel(parentId)
    expect((await prompt).stopReason).toBe('cancelled')
    const states = harness.subagentUpdates.flatMap(({ sessionId, update }) =>
      update.sessionUpdate === 'subagent_update' && update.state != null
        ? [[sessionId, update.state]]
        : [],
    )
    expect(states).toEqual([
      [parentId, { state: 'running' }],
      [parentId, { state: 'idle', stopReason: 'cancelled' }],
    ])
    expect(slow.aborted).toBe(1)
  })
})

describe('a client that does not show subagent sessions', () => {
  it('gets no subagent update and no frame naming the delegate, its cards nested on the parent', async () => {
    const harness = await makeHarness({ withFs: true, withTask: true, script })
    const parentId = await harness.newSession()
    expect((await harness.prompt(parentId, 'delegate it')).stopReason).toBe('end_turn')
    expect(harness.subagentUpdates).toEqual([])
    expect(harness.agentFrames().some((f) => f.text.includes('subagent_update'))).toBe(false)
    expect(sessionsNamed(harness)).toEqual([parentId])
    const [request] = harness.permissionRequests
    expect(request!.sessionId).toBe(parentId)
    expect(request!.toolCall.toolCallId).toMatch(/^[0-9a-f-]{36}\/w1$/)
  })
})

describe("a delegate's requests to the editor", () => {
  it('go under its own session id where its cards are, and under the parent id otherwise', async () => {
    for (const subagents of [true, false]) {
      const editor = { saveOnWrite: true }
      const harness = await makeHarness({ withFs: true, withTask: true, subagents, editor, script })
      const parentId = await harness.newSession()
      expect((await harness.prompt(parentId, 'delegate it')).stopReason).toBe('end_turn')
      const [write] = harness.editor!.writes
      const [request] = harness.permissionRequests
      // One id for the delegate's questions and its file requests.
      expect(write!.sessionId).toBe(request!.sessionId)
      if (subagents) expect(write!.sessionId).not.toBe(parentId)
      else expect(write!.sessionId).toBe(parentId)
    }
  })
})
