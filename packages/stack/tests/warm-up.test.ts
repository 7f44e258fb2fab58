// The warm-up: the bash grammar starts loading when a session opens (the bridge's
// acp/session-open, sent just after the session's response), and not before: starting the
// stack loads nothing.
import { Context } from 'cordis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'

const preload = vi.hoisted(() => vi.fn(async () => {}))

vi.mock('@deepseek-ai/dsh-tool-shell', async (original) => ({
  ...(await original<typeof import('@deepseek-ai/dsh-tool-shell')>()),
  preloadBashParser: preload,
}))

const WarmUp = await import('../src/warm-up')

afterEach(() => {
  preload.mockClear()
})

describe('the warm-up', () => {
  it('starts loading the bash grammar when a session opens, not when the stack starts', async () => {
    const ctx = new Context()
    const fiber = await ctx.plugin(WarmUp)
    expect(preload).not.toHaveBeenCalled()
    ctx.emit('acp/session-open', {} as AcpSessionOpening)
    expect(preload).toHaveBeenCalledTimes(1)
    await fiber.dispose()
    ctx.emit('acp/session-open', {} as AcpSessionOpening)
    expect(preload).toHaveBeenCalledTimes(1)
  })
})
