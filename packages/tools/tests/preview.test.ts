// ctx.tools.preview: what a call would do, from its tool's preview hook, never the call itself.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../src/index'
import { CodedError, makeContext } from './helpers/fixtures'
import { testExecution } from '../src/testing'

const writes: string[] = []
const previewing = defineTool({
  name: 'put',
  description: 'Puts a text.',
  input: z.object({ text: z.string() }),
  async execute(args) {
    writes.push(args.text)
    return 'put'
  },
  async preview(args) {
    if (args.text === 'stale') throw new CodedError('FS_STALE_VERSION', 'The file changed.')
    return [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: args.text }]
  },
})

const plain = defineTool({
  name: 'plain',
  description: 'No preview.',
  input: z.object({}),
  execute: async () => 'ok',
})

async function withTools() {
  const ctx = await makeContext()
  ctx.tools.register(previewing)
  ctx.tools.register(plain)
  return ctx
}

const call = (name: string, args: unknown) => testExecution(name, args)

describe('previews', () => {
  it('gives the tool preview for valid arguments without running the tool', async () => {
    const ctx = await withTools()
    expect(await ctx.tools.preview(call('put', { text: 'hi' }))).toEqual([
      { type: 'diff', path: '/w/a.txt', oldText: null, newText: 'hi' },
    ])
    expect(writes).toEqual([])
  })

  it('is undefined for a tool without a preview, an unknown tool or bad arguments', async () => {
    const ctx = await withTools()
    expect(await ctx.tools.preview(call('plain', {}))).toBeUndefined()
    expect(await ctx.tools.preview(call('nope', {}))).toBeUndefined()
    expect(await ctx.tools.preview(call('put', { text: 1 }))).toBeUndefined()
  })

  it('rejects with the error the call would fail with', async () => {
    const ctx = await withTools()
    await expect(ctx.tools.preview(call('put', { text: 'stale' }))).rejects.toMatchObject({
      code: 'FS_STALE_VERSION',
    })
  })
})
