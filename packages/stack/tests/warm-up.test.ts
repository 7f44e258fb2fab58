// The warm-up: what a session's first command needs is readied once the session was quiet for
// WARM_UP_DELAY_MS after it opened (the bridge's acp/session-open, sent just after the session's
// response), never while a turn runs and never before: starting the stack or opening a session
// sends nothing at once, so a first prompt sent at once has the CPU to itself. Every session
// that opens gets `tools/warm-up` with its agent (the permission layer resolves each session's
// roots; tool-shell does its part once); a closed session or a disposed stack gets none.
import { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'
import type { SessionEvent } from '@deepseek-ai/dsh-agent'
import type { ToolAgent } from '@deepseek-ai/dsh-tools'

const WarmUp = await import('../src/warm-up')
const DELAY = WarmUp.WARM_UP_DELAY_MS

/** A session as the bridge announces it, whose agent runs a turn when told. */
function opening(cwd: string) {
  const listeners = new Set<(event: SessionEvent) => void>()
  const closers: (() => void)[] = []
  const agent = {
    session: { header: { id: cwd, cwd } },
    running: false,
    disposed: false,
    subscribe(listener: (event: SessionEvent) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const session = {
    agent,
    onClose: (close: () => void) => void closers.push(close),
  } as unknown as AcpSessionOpening
  return {
    session,
    agent,
    listeners,
    endTurn() {
      agent.running = false
      for (const listener of [...listeners])
        listener({ type: 'turn/end', turnId: 't', reason: 'completed' })
    },
    close: () => closers.forEach((close) => close()),
  }
}

async function loaded() {
  const ctx = new Context()
  const warmed: ToolAgent[] = []
  ctx.on('tools/warm-up', (agent) => void warmed.push(agent))
  const fiber = await ctx.plugin(WarmUp)
  return { ctx, fiber, warmed }
}

beforeEach(() => void vi.useFakeTimers())
afterEach(() => void vi.useRealTimers())

describe('the warm-up', () => {
  it('sends tools/warm-up with each opened session’s agent once it was quiet for the delay, nothing before', async () => {
    const { ctx, warmed } = await loaded()
    const a = opening('/work/a')
    const b = opening('/work/b')
    ctx.emit('acp/session-open', a.session)
    ctx.emit('acp/session-open', b.session)
    expect(warmed).toEqual([])
    vi.advanceTimersByTime(DELAY - 1)
    expect(warmed).toEqual([])
    vi.advanceTimersByTime(1)
    expect(warmed).toEqual([a.agent, b.agent])
    vi.advanceTimersByTime(10 * DELAY)
    expect(warmed).toHaveLength(2)
  })

  it('a turn running at the delay puts the warm-up after its end and another quiet delay', async () => {
    const { ctx, warmed } = await loaded()
    const a = opening('/work/a')
    ctx.emit('acp/session-open', a.session)
    a.agent.running = true
    vi.advanceTimersByTime(3 * DELAY)
    expect(warmed).toEqual([])
    a.endTurn()
    expect(a.listeners.size).toBe(0)
    vi.advanceTimersByTime(DELAY - 1)
    expect(warmed).toEqual([])
    vi.advanceTimersByTime(1)
    expect(warmed).toEqual([a.agent])
  })

  it('a session closed before its warm-up, or the stack disposed, gets none', async () => {
    const { ctx, fiber, warmed } = await loaded()
    const closed = opening('/work/closed')
    const running = opening('/work/running')
    const later = opening('/work/later')
    ctx.emit('acp/session-open', closed.session)
    ctx.emit('acp/session-open', running.session)
    ctx.emit('acp/session-open', later.session)
    running.agent.running = true
    closed.close()
    vi.advanceTimersByTime(DELAY)
    expect(running.listeners.size).toBe(1)
    expect(warmed).toEqual([later.agent])
    await fiber.dispose()
    expect(running.listeners.size).toBe(0)
    running.endTurn()
    vi.advanceTimersByTime(10 * DELAY)
    ctx.emit('acp/session-open', opening('/work/after').session)
    vi.advanceTimersByTime(10 * DELAY)
    expect(warmed).toEqual([later.agent])
  })
})
