// untraced and eventBusOf: a plugin may take a service and the event bus once, when it is
// applied, and reach the same objects and listeners as through ctx, without the proxies.
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import ToolRegistry, { eventBusOf, untraced } from '../src/index'
import { testExecution } from '../src/testing'

declare module 'cordis' {
  interface Events {
    'test/ping'(n: number): void
  }
}

describe('untraced', () => {
  it('is the registry itself behind ctx.tools, the same object for every lookup', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRegistry)
    const registry = untraced(ctx.tools)
    expect(registry).toBeInstanceOf(ToolRegistry)
    expect(registry).not.toBe(ctx.tools)
    expect(untraced(ctx.tools)).toBe(registry)
    expect(registry.names()).toEqual(ctx.tools.names())
  })

  it('gives a plain value back as it is', () => {
    const value = { a: 1 }
    expect(untraced(value)).toBe(value)
  })
})

describe('eventBusOf', () => {
  it('reaches the listeners ctx.on added, for emit and waterfall', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRegistry)
    const seen: string[] = []
    ctx.on('tools/execute', async (exec, next) => {
      seen.push(exec.name)
      return next()
    })
    const bus = eventBusOf(ctx)
    const exec = testExecution('probe', {})
    const inner = async () => ({ callId: 'c', content: [], isError: false })
    await expect(bus.waterfall('tools/execute', exec, inner)).resolves.toMatchObject({
      isError: false,
    })
    bus.emit('test/ping', 7)
    expect(seen).toEqual(['probe'])
    ctx.on('test/ping', (n) => void seen.push(`ping ${n}`))
    bus.emit('test/ping', 8)
    expect(seen).toEqual(['probe', 'ping 8'])
  })
})
