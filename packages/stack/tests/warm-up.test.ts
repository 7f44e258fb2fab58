// The warm-up: what a session's first command needs starts getting ready when a session opens
// (the bridge's acp/session-open, sent just after the session's response), and not before:
// starting the stack loads nothing. With a shell provider, the commands' warm-up runs on the
// session's folder; without one, the grammar alone loads. Only the first session does it.
import { Context } from 'cordis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'

const preload = vi.hoisted(() => vi.fn(async () => {}))
const warmUp = vi.hoisted(() => vi.fn(async (_shell: unknown, _cwd: string) => {}))

vi.mock('@deepseek-ai/dsh-tool-shell', async (original) => ({
  ...(await original<typeof import('@deepseek-ai/dsh-tool-shell')>()),
  preloadBashParser: preload,
  warmUpCommands: warmUp,
}))

const WarmUp = await import('../src/warm-up')

afterEach(() => {
  preload.mockClear()
  warmUp.mockClear()
})

function opening(cwd: string): AcpSessionOpening {
  return { agent: { session: { header: { cwd } } } } as unknown as AcpSessionOpening
}

describe('the warm-up', () => {
  it('starts loading the bash grammar when a session opens, not when the stack starts', async () => {
    const ctx = new Context()
    const fiber = await ctx.plugin(WarmUp)
    expect(preload).not.toHaveBeenCalled()
    ctx.emit('acp/session-open', opening('/work'))
    expect(preload).toHaveBeenCalledTimes(1)
    await fiber.dispose()
    ctx.emit('acp/session-open', opening('/work'))
    expect(preload).toHaveBeenCalledTimes(1)
  })

  it('warms the commands up on the first session’s folder with the shell provider', async () => {
    const ctx = new Context()
    const shell = { warmUp: async () => {} }
    ctx.provide('shell', shell)
    await ctx.plugin(WarmUp)
    expect(warmUp).not.toHaveBeenCalled()
    ctx.emit('acp/session-open', opening('/work/a'))
    ctx.emit('acp/session-open', opening('/work/b'))
    expect(warmUp).toHaveBeenCalledTimes(1)
    expect(warmUp.mock.calls[0]![1]).toBe('/work/a')
    expect(preload).not.toHaveBeenCalled()
  })
})
