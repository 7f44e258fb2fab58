// ctx.tools.access: how a call asks a permission layer to judge it, from its tool's `access`
// hook on the validated arguments; nothing for an unknown tool, bad arguments or a broken hook.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { callEffect, defineTool } from '../src/index'
import { makeContext } from './helpers/fixtures'
import { testExecution } from '../src/testing'

const searching = defineTool({
  name: 'find',
  description: 'Finds files.',
  input: z.object({ root: z.string(), broken: z.boolean().default(false) }),
  execute: async () => 'found',
  access(args) {
    if (args.broken) throw new Error('no')
    return { effect: 'read', scope: [args.root] }
  },
})

const plain = defineTool({
  name: 'plain',
  description: 'No access hook.',
  input: z.object({}),
  execute: async () => 'ok',
})

async function withTools() {
  const ctx = await makeContext()
  ctx.tools.register(searching)
  ctx.tools.register(plain)
  return ctx
}

const call = (name: string, args: unknown) => testExecution(name, args)

describe('access', () => {
  it('gives the hook answer on the parsed arguments', async () => {
    const ctx = await withTools()
    expect(await ctx.tools.access(call('find', { root: '/w/src' }))).toEqual({
      effect: 'read',
      scope: ['/w/src'],
    })
  })

  it('is undefined for a tool without the hook, an unknown tool and bad arguments', async () => {
    const ctx = await withTools()
    expect(await ctx.tools.access(call('plain', {}))).toBeUndefined()
    expect(await ctx.tools.access(call('nope', {}))).toBeUndefined()
    expect(await ctx.tools.access(call('find', { root: 3 }))).toBeUndefined()
  })

  it('is undefined when the hook throws', async () => {
    const ctx = await withTools()
    expect(await ctx.tools.access(call('find', { root: '/w', broken: true }))).toBeUndefined()
  })
})

describe('callEffect', () => {
  it("takes the hook's effect over the card's kind", () => {
    expect(callEffect({ effect: 'write' }, 'think')).toBe('write')
    expect(callEffect({ effect: 'read' }, 'execute')).toBe('read')
  })

  it('defaults by the kind, and a card that draws no read or change runs code', () => {
    const kinds = [
      'read',
      'search',
      'edit',
      'delete',
      'move',
      'fetch',
      'execute',
      'think',
      'other',
    ] as const
    expect(kinds.map((kind) => callEffect({ scope: ['/w'] }, kind))).toEqual([
      'read',
      'read',
      'write',
      'write',
      'write',
      'network',
      'execute',
      'execute',
      'execute',
    ])
    expect(callEffect(undefined, undefined)).toBe('execute')
  })
})
