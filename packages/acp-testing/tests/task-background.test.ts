// Background tasks over the bridge, read and ended through the jobs seam: the call returns an
// id at once; the delegate's report reaches the parent's next model request; job_output reads
// a running task and a finished one; job_kill ends one (its delegate's model stream aborted,
// its running call's card ended) while another goes on; a cancel of the parent ends a waited
// and a background task alike; a background command and a task are one session's jobs. The
// model is watched (./helpers/watched-model): a delegate's request can be held open, so "while it
// runs" is a state the test sees, not a race. A `gate` tool holds a call until the test's
// condition holds; `hold` runs until aborted. Every frame schema-valid.
import { describe, expect, it, vi } from 'vitest'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { z } from 'zod'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { LlmRequest, LlmScript } from '@deepseek-ai/dsh-llm'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import { useAcpHarness } from './helpers/harness'
import { watchModel } from './helpers/watched-model'

const makeHarness = useAcpHarness()

type Conditions = Record<string, () => boolean>

/** `hold` runs until aborted; `gate` waits until its condition (`until`) holds. */
function testTools(conditions: Conditions, state: { held: number; aborted: number }) {
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
const job = (id: string, name: 'job_output' | 'job_kill', jobId: string) => ({
  id,
  name,
  arguments: { job_id: jobId },
})

/** A harness with the task and test tools, in full-access (nobody is asked), and its session. */
async function open(turns: LlmScript['turns'], withShell = false) {
  const conditions: Conditions = {}
  const state = { held: 0, aborted: 0 }
  const harness = await makeHarness({
    withTask: true,
    withShell,
    mode: 'full-access',
    setup: testTools(conditions, state),
    script: { turns },
  })
  const model = watchModel(harness.ctx)
  const sessionId = await harness.newSession()
  const parent = harness.ctx.agents.get(sessionId) as Agent
  /** The text of each of the parent's tool results, by call id. */
  const results = () =>
    Object.fromEntries(
      parent.session.events.flatMap((e) =>
        e.type === 'tool/result' ? [[e.callId, e.content[0]!.text] as const] : [],
      ),
    )
  const notes = () =>
    parent.session.events.flatMap((e) => (e.type === 'session/note' ? [e.text] : []))
  const running = () =>
    harness.ctx.jobs
      .list(parent.session)
      .filter((j) => j.running)
      .map((j) => j.id)
  return { conditions, state, harness, model, sessionId, parent, results, notes, running }
}

/** The user messages of a request, in order (a session's notes are among them). */
const userTexts = (request: LlmRequest | undefined) =>
  (request?.messages ?? []).flatMap((m) => (m.role === 'user' ? [m.content] : []))

describe('a background task', () => {
  it("is read running and finished by job_output; its report reaches the parent's next request", async () => {
    const t = await open([
      { toolCalls: [background('t1', 'find x'), gate('g1', 'child-gated')] },
      { toolCalls: [gate('c1', 'released')] },
      { toolCalls: [job('o1', 'job_output', 'task-t1')] },
      { text: 'Waiting for it.' },
      { text: 'x is in x.ts.' },
      { toolCalls: [job('o2', 'job_output', 'task-t1')] },
      { text: 'Noted.' },
    ])
    let released = false
    t.conditions['child-gated'] = () => cardOpened(t.harness, 'c1')
    t.conditions.released = () => released
    expect((await t.harness.prompt(t.sessionId, 'go')).stopReason).toBe('end_turn')
    expect(t.results()).toMatchObject({
      t1: expect.stringMatching(/^Started background task task-t1\. .*job_output/),
      o1: 'Task task-t1 (find x) is still running; its calls:\n… gate',
    })
    // The parent is idle; the delegate finishes; its report waits for the next request.
    released = true
    await vi.waitFor(() => expect(t.running()).toEqual([]), { timeout: 20_000 })
    expect((await t.harness.prompt(t.sessionId, 'and?')).stopReason).toBe('end_turn')
    const report = 'Background task task-t1 (find x) finished. Its report:\nx is in x.ts.'
    // Requests of the parent: the first prompt's three, then the second prompt's.
    const requests = t.model.parentRequests()
    expect(userTexts(requests[2])).toEqual(['go'])
    expect(userTexts(requests[3])).toEqual(['go', 'and?', report])
    expect(t.notes()).toEqual([report])
    expect(t.results().o2).toBe('Task task-t1 (find x) finished. Its report:\nx is in x.ts.')
    // The task card closed when the call returned, before the parent's next call began.
    const updates = t.harness.updatesOf(t.sessionId)
    const closed = updates.findIndex(
      (u) =>
        u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't1' && u.status === 'completed',
    )
    const gateOpened = updates.findIndex(
      (u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'g1',
    )
    expect(closed).toBeGreaterThanOrEqual(0)
    expect(closed).toBeLessThan(gateOpened)
  })

  it('job_kill ends one: its model stream aborted, its running call and card ended; another goes on', async () => {
    const t = await open([
      {
        toolCalls: [
          background('t1', 'one'),
          background('t2', 'two'),
          background('t3', 'three'),
          gate('g1', 'ready'),
        ],
      },
      { toolCalls: [{ id: 'h2', name: 'hold', arguments: {} }] },
      { toolCalls: [job('k1', 'job_kill', 'task-t1'), job('k2', 'job_kill', 'task-t2')] },
      {
        toolCalls: [
          job('o1', 'job_output', 'task-t1'),
          job('o2', 'job_output', 'task-t2'),
          job('o3', 'job_output', 'task-t3'),
        ],
      },
      { text: 'Two of them killed.' },
      { text: 'three done.' },
      { text: 'Good.' },
    ])
    // One waits in its model stream, two in a call, three in its stream until released.
    t.model.hold('one')
    t.model.hold('three')
    t.conditions.ready = () =>
      t.model.streaming.has('one') && t.model.streaming.has('three') && t.state.held === 1
    let killedAt: { aborted: string[]; calls: number } | undefined
    t.parent.subscribe((event) => {
      if (event.type === 'tool/result' && event.callId === 'k2')
        killedAt = { aborted: [...t.model.aborted], calls: t.state.aborted }
    })
    expect((await t.harness.prompt(t.sessionId, 'go')).stopReason).toBe('end_turn')
    // Each kill had ended its delegate by the time it answered.
    expect(killedAt).toEqual({ aborted: ['one'], calls: 1 })
    expect(t.results()).toMatchObject({
      k1: 'Task task-t1 (one) was killed.',
      k2: 'Task task-t2 (two) was killed.',
      o1:
        'Task task-t1 (one) ended; no tool calls\n' +
        'The delegate did not finish (cancelled: killed by job_kill).',
      o2: expect.stringMatching(
        /^Task task-t2 \(two\) ended; its calls:\n✗ hold\nThe delegate did not finish \(cancelled: killed by job_kill\)\.$/,
      ),
      o3: 'Task task-t3 (three) is still running; no tool calls',
    })
    expect(t.running()).toEqual(['task-t3'])
    // The killed delegate's running call ended on the parent's session: its card failed.
    const holdCard = t.harness
      .updatesOf(t.sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId.endsWith('/h2'))
    expect(holdCard.at(-1)).toMatchObject({ status: 'failed' })
    // Three goes on, and only its report comes to the parent.
    t.model.release('three')
    await vi.waitFor(() => expect(t.running()).toEqual([]), { timeout: 20_000 })
    expect((await t.harness.prompt(t.sessionId, 'next')).stopReason).toBe('end_turn')
    expect(t.notes()).toEqual([
      'Background task task-t3 (three) finished. Its report:\nthree done.',
    ])
    expect(t.model.aborted).toEqual(['one'])
  })
})

describe("cancelling the parent's turn", () => {
  it('ends a waited task and a background task alike', async () => {
    const t = await open([
      {
        toolCalls: [
          background('t1', 'back'),
          { id: 't2', name: 'task', arguments: { description: 'waited', prompt: 'waited.' } },
        ],
      },
      { toolCalls: [job('o1', 'job_output', 'task-t1')] },
      { text: 'Both ended.' },
    ])
    t.model.hold('back')
    t.model.hold('waited')
    const turn = t.harness.prompt(t.sessionId, 'go')
    await vi.waitFor(() => expect(t.model.streaming.size).toBe(2), { timeout: 20_000 })
    await t.harness.cancel(t.sessionId)
    expect((await turn).stopReason).toBe('cancelled')
    await vi.waitFor(() => expect(t.model.aborted.sort()).toEqual(['back', 'waited']), {
      timeout: 20_000,
    })
    await vi.waitFor(() => expect(t.running()).toEqual([]), { timeout: 20_000 })
    // The waited task's card ended with the turn.
    const waited = t.harness
      .updatesOf(t.sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't2')
    expect(waited.at(-1)).toMatchObject({ status: 'failed' })
    // The background one says how it ended, and sent no report.
    expect((await t.harness.prompt(t.sessionId, 'again')).stopReason).toBe('end_turn')
    expect(t.results().o1).toBe(
      'Task task-t1 (back) ended; no tool calls\nThe delegate did not finish ' +
        '(cancelled: ended by a cancelled turn of its session).',
    )
    expect(t.notes()).toEqual([])
  })
})

describe("a session's jobs", () => {
  it('are its background commands and tasks alike, read and ended by the same tools', async () => {
    const t = await open(
      [
        {
          toolCalls: [
            {
              id: 'b1',
              name: 'bash',
              arguments: { command: 'echo up; sleep 30', run_in_background: true },
            },
            background('t1', 'look'),
            gate('g1', 'started'),
          ],
        },
        { toolCalls: [job('o1', 'job_output', 'nope')] },
        { toolCalls: [job('o2', 'job_output', 'b1')] },
        { toolCalls: [job('k1', 'job_kill', 'b1'), job('k2', 'job_kill', 'task-t1')] },
        { text: 'All ended.' },
      ],
      true,
    )
    t.model.hold('look')
    t.conditions.started = () => t.model.streaming.has('look') && t.harness.ctx.shell.jobs.has('b1')
    expect((await t.harness.prompt(t.sessionId, 'go')).stopReason).toBe('end_turn')
    const results = t.results()
    expect(results.o1).toBe(
      'Error: No background job "nope" (this session\'s jobs: b1 (command: echo up; sleep 30, ' +
        'running); task-t1 (task: look, running)). Use the id a bash or task call with ' +
        '`run_in_background` returned.',
    )
    expect(results.o2).toMatch(/^(up\n)?job b1 still running$/)
    expect(results.k1).toBe('job b1 ended: killed by signal SIGTERM (cancelled)')
    expect(results.k2).toBe('Task task-t1 (look) was killed.')
    expect(t.model.aborted).toEqual(['look'])
    expect(t.running()).toEqual([])
  })
})

/** The delegate's call `callId` has its card open on the parent's session. */
function cardOpened(harness: { updates: { update: SessionUpdate }[] }, callId: string) {
  return harness.updates.some(
    (n) => n.update.sessionUpdate === 'tool_call' && n.update.toolCallId.endsWith(`/${callId}`),
  )
}
