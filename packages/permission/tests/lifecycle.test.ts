// Load, use, dispose: the gate's listener and its per-session state go with the plugin.
import { describe, expect, it } from 'vitest'
import { ALLOW_ALWAYS, loadPermission, makeHarness, session } from './helpers/harness'

describe('load, use, dispose', () => {
  it('after disposal calls run unasked, and a reload has forgotten always allow', async () => {
    const harness = await makeHarness()
    const mine = session('/w', { mode: 'ask' })
    harness.reply = ALLOW_ALWAYS
    await harness.call('edit', 'a.txt', { session: mine })
    harness.reset()
    const remembered = await harness.call('edit', 'a.txt', { session: mine })
    expect(harness.outcome(remembered)).toEqual({ ran: true, asked: 0, code: undefined })

    await harness.fiber.dispose()
    harness.reset()
    const readOnly = session('/w', { mode: 'read-only' })
    const unguarded = await harness.call('edit', '/x/b.txt', { session: readOnly })
    expect(harness.outcome(unguarded)).toEqual({ ran: true, asked: 0, code: undefined })

    await loadPermission(harness.ctx)
    harness.reset()
    const again = await harness.call('edit', 'a.txt', { session: mine })
    expect(harness.outcome(again)).toEqual({ ran: true, asked: 1, code: undefined })
  })

  it('the gate wraps listeners that were added before it', async () => {
    const harness = await makeHarness({ config: { defaultMode: 'read-only' } })
    const reached: string[] = []
    await harness.fiber.dispose()
    harness.ctx.on('tools/execute', (exec, next) => {
      reached.push(exec.name)
      return next()
    })
    await loadPermission(harness.ctx, { defaultMode: 'read-only' })
    const result = await harness.call('edit', 'a.txt', { session: session('/w') })
    expect(result.error?.code).toBe('PERMISSION_DENIED')
    expect(reached).toEqual([])
  })
})
