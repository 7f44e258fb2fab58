// Background tasks over the bridge: the call returns an id at once; the delegate's report
// reaches the parent's model before its next request (a note the session keeps); task_output
// reads it; task_kill ends a running one; a cancel of the parent's turn ends the others. Test
// tools (`hold`: runs until aborted; `gate`: waits until the test's condition holds) fix the
// order of model requests, which the scripted model hands out in turn. Every frame schema-valid.
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

/** `hold` runs until its call is aborted; `gate` waits until its condition (`until`) holds. */
function testTools(state: { held: number; aborted: number; childEnds: number }) {
  const conditions: Record<string, () => boolean> = {
    held: () => state.held > state.aborted,
    'child-ended': () => state.childEnds > 0,
  }
  return (ctx: Context) => {
    ctx.tools.register(
      defineTool({
        name: 'hold',
        description: 'Runs until aborted.',
        input: z.object({}),
        execute: (_args, exec) =>
          new Promise<string>((_resolve, reject) => {
            state.held += 1
            exec.signal?.addEventListener('abort', () => {
              state.aborted += 1
              reject(new Error('aborted'))
            })
          }),
        access: () => ({ effect: 'none' }),
      }),
    )
    ctx.tools.register(
      defineTool({
        name: 'gate',
        description: 'Waits for the test.',
        input: z.object({ until: z.string() }),
        execute: async (args) => {
          await vi.waitFor(() => expect(conditions[args.until]!()).toBe(true), { timeout: 20_000 })
          return 'open'
        },
        access: () => ({ effect: 'none' }),
      }),
    )
  }
}

const background = (id: string, description: string) => ({
  id,
  name: 'task',
  arguments: { description, prompt: `${description}.`, run_in_background: true },
})
const gate = (id: string, until: string) => ({ id, name: 'gate', arguments: { until } })

/** A harness with the task and test tools, in full-access (nobody is asked), and its session. */
async function open(turns: LlmScript['turns']) {
  const state = { held: 0, aborted: 0, childEnds: 0 }
  const harness = await makeHarness({
    withTask: true,
    mode: 'full-access',
    setup: testTools(state),
    script: { turns },
  })
  const sessionId = await harness.newSession()
  const parent = harness.ctx.agents.get(sessionId) as Agent
  return { state, harness, sessionId, parent }
}

describe('a background task', () => {
  it("returns an id at once; its report reaches the parent's next request and task_output", async () => {
    const { state, harness, sessionId, parent } = await open([
      { toolCalls: [background('t1', 'find x'), gate('g1', 'child-ended')] },
      { text: 'x is in x.ts.' },
      { toolCalls: [{ id: 'o1', name: 'task_output', arguments: { task_id: 'task-t1' } }] },
      { text: 'Noted.' },
    ])
    parent.onChild((child) =>
      child.subscribe((event) => {
        if (event.type === 'turn/end') state.childEnds += 1
      }),
    )
    expect((await harness.prompt(sessionId, 'go')).stopReason).toBe('end_turn')
    const results = parent.session.events.flatMap((e) => (e.type === 'tool/result' ? [e] : []))
    expect(results.map((r) => r.content[0]!.text.split('.')[0])).toEqual([
      'Started background task task-t1',
      'open',
      'Task task-t1 (find x) finished',
    ])
    expect(results[2]!.content[0]!.text).toContain('Its report:\nx is in x.ts.')
    // The note was logged before the request that answered with the task_output call.
    const events = parent.session.events
    const note = events.findIndex((e) => e.type === 'session/note')
    expect(events[note]).toMatchObject({
      text: 'Background task task-t1 (find x) finished. Its report:\nx is in x.ts.',
    })
    const outputCall = events.findIndex((e) => e.type === 'tool/call' && e.callId === 'o1')
    const gateResult = events.findIndex((e) => e.type === 'tool/result' && e.callId === 'g1')
    expect(gateResult).toBeLessThan(note)
    expect(note).toBeLessThan(outputCall)
    // The task card closed at once, before the delegate's work.
    const updates = harness.updatesOf(sessionId)
    const taskClosed = updates.findIndex(
      (u) =>
        u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't1' && u.status === 'completed',
    )
    const gateOpened = updates.findIndex(
      (u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'g1',
    )
    expect(taskClosed).toBeGreaterThanOrEqual(0)
    expect(taskClosed).toBeLessThan(gateOpened)
  })

  it('task_kill ends a running one; a cancel of the parent ends the others', async () => {
    const { state, harness, sessionId, parent } = await open([
      { toolCalls: [background('t1', 'one'), gate('g1', 'held')] },
      { toolCalls: [{ id: 'h1', name: 'hold', arguments: {} }] },
      { toolCalls: [{ id: 'k1', name: 'task_kill', arguments: { task_id: 'task-t1' } }] },
      { toolCalls: [{ id: 'o1', name: 'task_output', arguments: { task_id: 'task-t1' } }] },
      { text: 'Killed.' },
      { toolCalls: [background('t2', 'two'), gate('g2', 'held')] },
      { toolCalls: [{ id: 'h2', name: 'hold', arguments: {} }] },
      { toolCalls: [{ id: 'h3', name: 'hold', arguments: {} }] },
    ])
    expect((await harness.prompt(sessionId, 'one')).stopReason).toBe('end_turn')
    expect(state).toMatchObject({ held: 1, aborted: 1 })
    const texts = parent.session.events.flatMap((e) =>
      e.type === 'tool/result' ? [e.content[0]!.text] : [],
    )
    expect(texts.slice(2)).toEqual([
      'Task task-t1 (one) was killed.',
      expect.stringMatching(
        /^Task task-t1 \(one\) was killed\. Its report:\nThe delegate did not finish \(cancelled\)/,
      ),
    ])
    // Turn two: a background delegate holds, then the parent holds too; the cancel ends both.
    const turn = harness.prompt(sessionId, 'two')
    await vi.waitFor(() => expect(state.held).toBe(3), { timeout: 20_000 })
    await harness.cancel(sessionId)
    expect((await turn).stopReason).toBe('cancelled')
    await vi.waitFor(() => expect(state.aborted).toBe(3), { timeout: 20_000 })
    expect(parent.session.events.some((e) => e.type === 'session/note')).toBe(false)
  })
})
