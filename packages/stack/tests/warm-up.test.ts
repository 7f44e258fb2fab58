// The warm-up: what a session's first call needs starts getting ready when a session opens
// (the bridge's acp/session-open, sent just after the session's response), and not before:
// starting the stack sends nothing. Every session that opens sends `tools/warm-up` with its
// agent (the permission layer resolves each session's roots; tool-shell does its part once).
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'
import type { ToolAgent } from '@deepseek-ai/dsh-tools'

const WarmUp = await import('../src/warm-up')

function opening(cwd: string): AcpSessionOpening {
  return { agent: { session: { header: { id: cwd, cwd } } } } as unknown as AcpSessionOpening
}

describe('the warm-up', () => {
  it('sends tools/warm-up with each opening session’s agent, not when the stack starts', async () => {
    const ctx = new Context()
    const warmed: ToolAgent[] = []
    ctx.on('tools/warm-up', (agent) => void warmed.push(agent))
    const fiber = await ctx.plugin(WarmUp)
    expect(warmed).toEqual([])
    const a = opening('/work/a')
    const b = opening('/work/b')
    ctx.emit('acp/session-open', a)
    ctx.emit('acp/session-open', b)
    expect(warmed).toHaveLength(2)
    expect(warmed[0]).toBe(a.agent)
    expect(warmed[1]).toBe(b.agent)
    await fiber.dispose()
    ctx.emit('acp/session-open', opening('/work/c'))
    expect(warmed).toHaveLength(2)
  })
})
