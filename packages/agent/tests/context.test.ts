// The session's context: the meter's estimate against reported usage; compaction's elision
// order (recent steps whole, stubs naming what was elided, kept outputs untouched); the prefix
// each request shares with the one before between compactions; the summary when elision is
// not enough; a single output too large cut with a note; a too-long refusal recovered once;
// the usage and cost logged after each response; /compact on demand; and a restored session
// rebuilding the compacted conversation.
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry, { defineTool } from '@deepseek-ai/dsh-tools'
import type { LlmMessage, LlmRequest } from '@deepseek-ai/dsh-llm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import Agents, { ContextMeter, elideBefore, estimateRequest, historyOf, recentStart } from '../src'
import type { AgentsConfig, SessionEvent } from '../src'
import { WindowedLlm, readCall, registerBigRead, serverTokens } from './helpers/windowed'
import type { WindowedConfig } from './helpers/windowed'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()))
})

async function windowedHost(model: WindowedConfig, lines: number, agents: AgentsConfig = {}) {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-context-')))
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(WindowedLlm, model)
  const started: string[] = []
  registerBigRead(ctx, lines, started)
  const fiber = await ctx.plugin(Agents, agents).await()
  cleanups.push(async () => {
    await fiber.dispose()
    await rm(dir, { recursive: true, force: true })
  })
  const llm = ctx.llm as WindowedLlm
  return { ctx, dir, llm, started, agents: ctx.agents }
}

const of = <T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T) =>
  events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type)

/** The 30-read session: one read per response, then an answer. */
const thirtyReads = (window: number): WindowedConfig => ({
  window,
  responses: [
    ...Array.from({ length: 30 }, (_, i) => ({
      calls: [readCall(`r${i + 1}`, `src/f${i + 1}.ts`)],
    })),
    { text: 'All thirty files read.' },
  ],
})

describe('the meter', () => {
  const request = (messages: LlmMessage[]) => ({ system: 'sys', tools: [], messages })

  it('is the reported usage plus the scaled estimate of what was added since', () => {
    const meter = new ContextMeter()
    const first: LlmMessage[] = [{ role: 'user', content: 'x'.repeat(3500) }]
    const raw = estimateRequest(request(first))
    expect(meter.measure(request(first))).toBe(raw)
    const answer: LlmMessage = { role: 'assistant', content: 'ok' }
    meter.report(request(first), answer, { inputTokens: raw * 2, outputTokens: 5 })
    expect(meter.calibration).toBe(2)
    const added: LlmMessage = { role: 'user', content: 'y'.repeat(700) }
    const grown = request([...first, answer, added])
    const addedRaw = estimateRequest(grown) - estimateRequest(request([...first, answer]))
    expect(meter.measure(grown)).toBe(raw * 2 + 5 + addedRaw * 2)
  })

  it('after a reset it scales the estimate of the whole request', () => {
    const meter = new ContextMeter()
    const messages: LlmMessage[] = [{ role: 'user', content: 'z'.repeat(700) }]
    meter.report(request(messages), undefined, {
      inputTokens: estimateRequest(request(messages)) * 1.5,
    })
    meter.reset()
    const shorter = request([{ role: 'user', content: 'z'.repeat(350) }])
    expect(meter.measure(shorter)).toBe(Math.ceil(estimateRequest(shorter) * 1.5))
  })
})

describe('elision', () => {
  const history: LlmMessage[] = [{ role: 'user', content: 'read them all' }]
  for (let i = 1; i <= 5; i += 1) {
    history.push({
      role: 'assistant',
      content: '',
      toolCalls: [
        {
          id: `c${i}`,
          name: i === 2 ? 'todo' : 'read',
          arguments: JSON.stringify({ file_path: `f${i}.ts`, offset: 1, limit: 200 }),
        },
      ],
    })
    history.push({ role: 'tool', toolCallId: `c${i}`, content: 'line\n'.repeat(200) })
  }

  it('elides the outputs before the recent steps into stubs naming the call, and keeps the recent ones whole', () => {
    const end = recentStart(history, 2)
    expect(end).toBe(7)
    const { history: next, replaced } = elideBefore(history, end, (call) => call.name === 'todo')
    expect(replaced.map((entry) => entry.callId)).toEqual(['c1', 'c3'])
    expect(next[2]).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      content:
        '[read of f1.ts lines 1–200 (201 lines) elided to save context; run it again if needed]',
    })
    expect(next[4]).toBe(history[4]) // the kept tool's output
    expect(next.slice(7)).toEqual(history.slice(7))
    expect(next).toHaveLength(history.length)
  })

  it('a stub is not elided again', () => {
    const once = elideBefore(history, 9).history
    expect(elideBefore(once, 9).replaced).toEqual([])
  })
})

describe('compaction in a session', () => {
  it('a session reading 30 large files never sends a request over the window and ends with the answer', async () => {
    const host = await windowedHost(thirtyReads(6000), 120)
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('read the thirty files')
    expect(end.reason).toBe('completed')
    expect(host.llm.refused).toEqual([])
    for (const request of host.llm.requests) expect(serverTokens(request)).toBeLessThanOrEqual(6000)
    expect(
      of(agent.session.events, 'assistant/chunk')
        .map((e) => e.text)
        .join(''),
    ).toContain('All thirty files read.')
    const compactions = of(agent.session.events, 'context/compacted')
    expect(compactions.length).toBeGreaterThan(0)
    expect(compactions.length).toBeLessThan(15)
    expect(compactions[0]!.elided).toBeGreaterThan(0)
  })

  it('requests between compactions keep the previous request whole as their prefix', async () => {
    const host = await windowedHost(thirtyReads(12_000), 60)
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('read the thirty files')
    const requests = host.llm.requests.filter((r) => !r.system.startsWith('You compact'))
    let kept = 0
    for (let i = 1; i < requests.length; i += 1) {
      const before = requests[i - 1]!.messages
      const prefix = requests[i]!.messages.slice(0, before.length)
      if (JSON.stringify(prefix) === JSON.stringify(before)) kept += 1
    }
    const compactions = of(agent.session.events, 'context/compacted').length
    expect(compactions).toBeGreaterThan(0)
    // Only the request right after each compaction starts anew.
    expect(kept).toBe(requests.length - 1 - compactions)
  })

  it('the recent steps stay whole and older outputs become stubs', async () => {
    const host = await windowedHost(thirtyReads(12_000), 60)
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('read the thirty files')
    const first = of(agent.session.events, 'context/compacted')[0]!
    const index = host.llm.requests.findIndex((r) =>
      r.messages.some((m) => m.role === 'tool' && m.content.includes('elided to save context')),
    )
    const request = host.llm.requests[index]!
    const tools = request.messages.filter(
      (m): m is Extract<LlmMessage, { role: 'tool' }> => m.role === 'tool',
    )
    expect(tools.slice(-3).every((m) => !m.content.includes('elided'))).toBe(true)
    expect(tools[0]!.content).toMatch(
      /^\[read of src\/f1\.ts \(60 lines\) elided to save context; run it again if needed\]$/,
    )
    expect(first.replaced.map((r) => r.callId)).toContain('r1')
  })

  it('the usage is logged after every response, with the cost at the model prices', async () => {
    const host = await windowedHost(
      { window: 50_000, responses: [{ calls: [readCall('a', 'a.ts')] }, { text: 'done' }] },
      10,
    )
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('go')
    const usage = of(agent.session.events, 'context/usage')
    expect(usage).toHaveLength(2)
    const tokens = host.llm.requests.map(serverTokens)
    expect(usage.map((u) => [u.used, u.size])).toEqual(tokens.map((t) => [t + 10, 50_000]))
    const cost = tokens.reduce((sum, t) => sum + (t * 1 + 10 * 2) / 1e6, 0)
    expect(usage[1]!.cost!.currency).toBe('USD')
    expect(usage[1]!.cost!.amount).toBeCloseTo(cost, 12)
  })

  it('each request pays the rates in force when it was sent: peak, then off-peak', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    cleanups.push(async () => void vi.useRealTimers())
    const prices = {
      currency: 'USD',
      inputPerMillion: 4,
      cachedInputPerMillion: 4,
      outputPerMillion: 8,
      offPeak: { inputPerMillion: 2, cachedInputPerMillion: 2, outputPerMillion: 4 },
      peak: [{ days: [1, 2, 3, 4, 5], from: '06:00', to: '10:00' }],
    }
    const responses = [{ text: 'one' }, { text: 'two' }]
    const host = await windowedHost({ window: 50_000, responses, prices }, 10)
    const agent = host.agents.create({ cwd: host.dir })
    vi.setSystemTime(new Date('2026-12-07T07:00:00Z')) // a Monday, peak
    await agent.send('first')
    vi.setSystemTime(new Date('2026-12-07T12:00:00Z')) // the same Monday, off-peak
    await agent.send('second')
    const [peak, offPeak] = host.llm.requests.map(serverTokens)
    const usage = of(agent.session.events, 'context/usage')
    expect(usage[0]!.cost!.amount).toBeCloseTo((peak! * 4 + 10 * 8) / 1e6, 12)
    const sum = (peak! * 4 + 10 * 8 + offPeak! * 2 + 10 * 4) / 1e6
    expect(usage[1]!.cost!.amount).toBeCloseTo(sum, 12)
  })

  it('one output too large for what is left is cut with a note saying how to see the rest', async () => {
    const host = await windowedHost(
      { window: 4000, responses: [{ calls: [readCall('big', 'big.ts')] }, { text: 'ok' }] },
      2000,
    )
    const agent = host.agents.create({ cwd: host.dir })
    expect((await agent.send('read big.ts')).reason).toBe('completed')
    const result = of(agent.session.events, 'tool/result')[0]!
    expect(result.content[0]!.text).toMatch(
      /\n\[output cut to \d+ of \d+ characters to fit the context window; ask for a narrower part/,
    )
    expect(host.llm.refused).toEqual([])
  })

  it('a request the server still refuses as too long is compacted harder and sent once more', async () => {
    const host = await windowedHost({ ...thirtyReads(8000), skew: 1500, silent: true }, 60)
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('read the thirty files')
    expect(end.reason).toBe('completed')
    expect(host.llm.refused.length).toBeGreaterThan(0)
    const triggers = of(agent.session.events, 'context/compacting').map((e) => e.trigger)
    expect(triggers).toContain('refused')
  })

  it('a request over the threshold with nothing to elide, summarise or cut logs no compaction', async () => {
    const host = await windowedHost({ window: 20_000, responses: [{ text: 'fine' }] }, 1)
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('x'.repeat(Math.round(20_000 * 0.82 * 3.5)))
    expect(end.reason).toBe('completed')
    expect(host.llm.requests).toHaveLength(1)
    expect(of(agent.session.events, 'context/compacting')).toEqual([])
  })

  it('a conversation that cannot fit ends the turn with what happened and what to do', async () => {
    const host = await windowedHost({ window: 2000, responses: [{ text: 'never' }] }, 1)
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('x'.repeat(20_000))
    expect(end.reason).toBe('error')
    expect(end.error).toMatch(
      /no longer fits the model's context window .* start a new session, or choose a model with a larger window/,
    )
    expect(host.llm.requests).toEqual([])
  })

  it('compact() elides and summarises on demand, as a turn of its own', async () => {
    const host = await windowedHost(
      {
        window: 100_000,
        responses: [...thirtyReads(0).responses.slice(0, 6), { text: 'five read' }],
      },
      20,
    )
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('read five files')
    const end = await agent.compact()
    expect(end.reason).toBe('completed')
    const compacted = of(agent.session.events, 'context/compacted')
    expect(compacted).toHaveLength(1)
    expect(compacted[0]!.trigger).toBe('command')
    expect(compacted[0]!.summary?.opening).toMatch(
      /^read five files\n\n\[The earlier conversation, summarised to save context\]\n- summary of/,
    )
  })

  it('a summary keeps the current plan in its opening, though the call that set it is summarised', async () => {
    const responses = [
      { calls: [{ id: 'p1', name: 'plan', arguments: { steps: 'read, then fix' } }] },
      ...thirtyReads(0).responses.slice(0, 6),
      { text: 'five read' },
    ]
    const host = await windowedHost({ window: 100_000, responses }, 20)
    host.ctx.tools.register(
      defineTool({
        name: 'plan',
        description: 'Sets the plan.',
        input: z.object({ steps: z.string() }),
        execute: async (args) => `Plan: ${args.steps}`,
        presentResult: (args) => ({
          plan: [{ content: args.steps, status: 'in_progress', priority: 'medium' }],
        }),
      }),
    )
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('plan and read five files')
    await agent.compact()
    const [compacted] = of(agent.session.events, 'context/compacted')
    expect(compacted?.summary?.opening).toContain(
      '\n\n[Your current plan, as you last set it]\nPlan: read, then fix',
    )
  })

  it('a history rebuilt from the log is the compacted conversation the live agent holds', async () => {
    const host = await windowedHost(thirtyReads(6000), 120)
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('read the thirty files')
    await agent.compact()
    const rebuilt = historyOf(agent.session.events)
    const lastRequest = host.llm.requests.at(-1) as LlmRequest
    // The summary request is the last; the live history is what it left.
    expect(lastRequest.system.startsWith('You compact')).toBe(true)
    const live = (agent as unknown as { history: LlmMessage[] }).history
    expect(rebuilt).toEqual(live.map(({ ...m }) => m))
  })
})
