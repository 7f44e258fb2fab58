// Several calls in one response: consecutive calls whose effect is read (their access hook's,
// else their card's default) run side by side, at most READ_CONCURRENCY at once, their results
// back in the calls' order; so do calls whose access states a concurrency group, at most its
// limit at once, beside the reads; any other call runs alone, after the calls before it and
// before those after it. The card's kind is only drawn: the effect decides.
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry, { defineTool } from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import Agents, { READ_CONCURRENCY, historyOf } from '../src'
import type { SessionEvent } from '../src'
import { WindowedLlm } from './helpers/windowed'

let cleanup: (() => Promise<void>) | undefined
afterEach(async () => {
  await cleanup?.()
  cleanup = undefined
})

/**
 * A host whose tools log when they run: `look` (kind read), `change` (kind edit), `peek` (drawn
 * as execute, effect read), `jot` (drawn as think, effect write), `fan` (effect none, in a
 * concurrency group of two) and `odd` (the same, with a limit of zero).
 */
async function host(calls: { name: string; arguments: Record<string, unknown>; id: string }[]) {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-side-')))
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(WindowedLlm, { window: 200_000, responses: [{ calls }, { text: 'ok' }] })
  const log: string[] = []
  let running = 0
  let peak = 0
  // A call may wait for another's end (`after: 'look 2'`) besides its time: an order that does
  // not hang on the machine's load.
  const ends = new Map<string, { ended: Promise<void>; end: () => void }>()
  const endOf = (key: string) => {
    let entry = ends.get(key)
    if (entry === undefined) {
      let end = (): void => {}
      const ended = new Promise<void>((resolve) => (end = resolve))
      entry = { ended, end }
      ends.set(key, entry)
    }
    return entry
  }
  const fan = { effect: 'none', concurrency: { group: 'fan', limit: 2 } } as const
  const odd = { effect: 'none', concurrency: { group: 'odd', limit: 0 } } as const
  for (const [name, kind, access] of [
    ['look', 'read', undefined],
    ['change', 'edit', undefined],
    ['peek', 'execute', { effect: 'read' }],
    ['jot', 'think', { effect: 'write' }],
    ['fan', 'think', fan],
    ['odd', 'think', odd],
  ] as const) {
    ctx.tools.register(
      defineTool({
        name,
        description: name,
        input: z.object({ n: z.number(), ms: z.number(), after: z.string().optional() }),
        async execute(args) {
          running += 1
          peak = Math.max(peak, running)
          log.push(`start ${name} ${args.n}`)
          await new Promise((resolve) => setTimeout(resolve, args.ms))
          if (args.after !== undefined) await endOf(args.after).ended
          log.push(`end ${name} ${args.n}`)
          endOf(`${name} ${args.n}`).end()
          running -= 1
          return `${name} ${args.n}`
        },
        presentCall: (args) => ({ title: `${name} ${args.n}`, kind }),
        ...(access !== undefined && { access: () => access }),
      }),
    )
  }
  const fiber = await ctx.plugin(Agents).await()
  cleanup = async () => {
    await fiber.dispose()
    await rm(dir, { recursive: true, force: true })
  }
  const llm = ctx.llm as WindowedLlm
  return { agent: ctx.agents.create({ cwd: dir }), log, peak: () => peak, llm }
}

const look = (n: number, ms: number, after?: string) => ({
  id: `l${n}`,
  name: 'look',
  arguments: { n, ms, ...(after !== undefined && { after }) },
})
const change = (n: number) => ({ id: `c${n}`, name: 'change', arguments: { n, ms: 5 } })
const call = (name: string, n: number, ms: number, after?: string) => ({
  id: `${name}${n}`,
  name,
  arguments: { n, ms, ...(after !== undefined && { after }) },
})

describe('calls side by side', () => {
  it('twelve reads run at most eight at once and their results go back in call order', async () => {
    const calls = Array.from({ length: 12 }, (_, i) => look(i + 1, 40 - i * 3))
    const { agent, peak, llm } = await host(calls)
    expect((await agent.send('look')).reason).toBe('completed')
    expect(peak()).toBe(READ_CONCURRENCY)
    const tools = llm.requests[1]!.messages.filter((m) => m.role === 'tool')
    expect(tools.map((m) => (m.role === 'tool' ? m.toolCallId : ''))).toEqual(
      calls.map((c) => c.id),
    )
    expect(tools.map((m) => m.content)).toEqual(calls.map((c) => `look ${c.arguments.n}`))
  })

  it('a call that changes something runs alone, between the reads around it', async () => {
    const { agent, log, peak } = await host([
      look(1, 20),
      look(2, 5),
      change(3),
      look(4, 5),
      look(5, 20),
    ])
    await agent.send('mixed')
    expect(peak()).toBe(2)
    const changeStart = log.indexOf('start change 3')
    expect(log.slice(0, changeStart).filter((e) => e.startsWith('end'))).toHaveLength(2)
    expect(log[changeStart + 1]).toBe('end change 3')
  })

  it('the effect decides, not the card: reads drawn as commands run together, a think card that writes alone', async () => {
    const { agent, log, peak } = await host([
      call('peek', 1, 20, 'peek 2'),
      call('peek', 2, 5),
      call('jot', 3, 5),
      call('look', 4, 5),
    ])
    await agent.send('by effect')
    expect(peak()).toBe(2)
    const jotStart = log.indexOf('start jot 3')
    expect(log.slice(0, jotStart)).toEqual([
      'start peek 1',
      'start peek 2',
      'end peek 2',
      'end peek 1',
    ])
    expect(log.slice(jotStart)).toEqual(['start jot 3', 'end jot 3', 'start look 4', 'end look 4'])
  })

  it('each call is logged in order before the group runs, and its card starts when it runs', async () => {
    const { agent } = await host([look(1, 30, 'look 2'), look(2, 5)])
    await agent.send('two')
    const events = agent.session.events as SessionEvent[]
    const sequence = events
      .filter(
        (e) => e.type === 'tool/call' || e.type === 'tool/started' || e.type === 'tool/result',
      )
      .map((e) => `${e.type} ${'callId' in e ? e.callId : ''}`)
    expect(sequence).toEqual([
      'tool/call l1',
      'tool/call l2',
      'tool/started l1',
      'tool/started l2',
      'tool/result l2',
      'tool/result l1',
    ])
    // A loaded session rebuilds the results in the calls' order too.
    const rebuilt = historyOf(events).filter((m) => m.role === 'tool')
    expect(rebuilt.map((m) => (m.role === 'tool' ? m.toolCallId : ''))).toEqual(['l1', 'l2'])
  })

  it('calls of a concurrency group run side by side, at most its limit at once, beside the reads; a limit below one runs alone', async () => {
    const { agent, log, peak, llm } = await host([
      call('fan', 1, 30),
      call('fan', 2, 30),
      call('fan', 3, 5),
      call('look', 4, 10),
      call('fan', 5, 5),
      call('odd', 6, 5),
      call('fan', 7, 5),
    ])
    await agent.send('fan out')
    // Two fans and the read at once: the read does not wait for the group's turn.
    expect(peak()).toBe(3)
    const firstEnd = log.findIndex((entry) => entry.startsWith('end'))
    expect(log.slice(0, firstEnd).sort()).toEqual(['start fan 1', 'start fan 2', 'start look 4'])
    // The third fan starts when one of the first two is done, the fifth after the third starts.
    const fanEnd = log.findIndex((entry) => /^end fan [12]$/.test(entry))
    expect(log.indexOf('start fan 3')).toBeGreaterThan(fanEnd)
    expect(log.indexOf('start fan 5')).toBeGreaterThan(log.indexOf('start fan 3'))
    // `odd` runs alone, after every call before it and before the one after it.
    const oddStart = log.indexOf('start odd 6')
    expect(log.slice(0, oddStart).filter((entry) => entry.startsWith('end'))).toHaveLength(5)
    expect(log.slice(oddStart)).toEqual(['start odd 6', 'end odd 6', 'start fan 7', 'end fan 7'])
    const tools = llm.requests[1]!.messages.filter((m) => m.role === 'tool')
    expect(tools.map((m) => (m.role === 'tool' ? m.content : ''))).toEqual([
      'fan 1',
      'fan 2',
      'fan 3',
      'look 4',
      'fan 5',
      'odd 6',
      'fan 7',
    ])
  })
})
