import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../src/index'
import type { ToolResultView } from '../src/index'
import { makeContext } from './helpers/fixtures'

const presented = defineTool({
  name: 'show',
  description: 'Presents itself.',
  input: z.object({ file_path: z.string(), offset: z.number().optional() }),
  execute: async () => ({ content: 'ok', details: { line: 7 } }),
  presentCall(args, view) {
    if (args.file_path === 'explode') throw new Error('presenter bug')
    const title = view?.cwd ? `Show ${args.file_path} in ${view.cwd}` : `Show ${args.file_path}`
    return { title, kind: 'read', locations: [{ path: args.file_path, line: args.offset }] }
  },
  presentResult(args, result, view) {
    if (args.file_path === 'explode') throw new Error('presenter bug')
    return {
      title: `${result.isError ? 'Failed' : 'Showed'} ${args.file_path}:${result.details?.line}${view?.cwd ?? ''}`,
    }
  },
})

const plain = defineTool({
  name: 'plain',
  description: 'No presenters.',
  input: z.object({}),
  execute: async () => 'ok',
})

const done: ToolResultView<{ line: number }> = {
  content: [{ type: 'text', text: 'ok' }],
  isError: false,
  details: { line: 7 },
}

async function registry() {
  const ctx = await makeContext()
  ctx.tools.register(presented)
  ctx.tools.register(plain)
  return ctx.tools
}

describe('presentCall', () => {
  it('a call is presented from its parsed args', async () => {
    const tools = await registry()
    expect(tools.presentCall('show', { file_path: 'a.ts', offset: 3 })).toEqual({
      title: 'Show a.ts',
      kind: 'read',
      locations: [{ path: 'a.ts', line: 3 }],
    })
  })

  it('the view reaches the presenter', async () => {
    const tools = await registry()
    expect(tools.presentCall('show', { file_path: 'a.ts' }, { cwd: '/w' })?.title).toBe(
      'Show a.ts in /w',
    )
  })

  it('an unknown tool, bad args, no presenter or a throwing presenter give undefined', async () => {
    const tools = await registry()
    expect(tools.presentCall('missing', { file_path: 'a.ts' })).toBeUndefined()
    expect(tools.presentCall('show', { file_path: 3 })).toBeUndefined()
    expect(tools.presentCall('show', 'not an object')).toBeUndefined()
    expect(tools.presentCall('show', { file_path: 'a.ts', extra: 1 })).toBeUndefined()
    expect(tools.presentCall('plain', {})).toBeUndefined()
    expect(tools.presentCall('show', { file_path: 'explode' })).toBeUndefined()
  })
})

describe('presentResult', () => {
  it('a result is presented with its details and view', async () => {
    const tools = await registry()
    expect(tools.presentResult('show', { file_path: 'a.ts' }, done)).toEqual({
      title: 'Showed a.ts:7',
    })
    expect(
      tools.presentResult('show', { file_path: 'a.ts' }, { ...done, isError: true }, { cwd: '/w' }),
    ).toEqual({
      title: 'Failed a.ts:7/w',
    })
  })

  it('an unknown tool, bad args, no presenter or a throwing presenter give no result card', async () => {
    const tools = await registry()
    expect(tools.presentResult('missing', { file_path: 'a.ts' }, done)).toBeUndefined()
    expect(tools.presentResult('show', {}, done)).toBeUndefined()
    expect(tools.presentResult('plain', {}, done)).toBeUndefined()
    expect(tools.presentResult('show', { file_path: 'explode' }, done)).toBeUndefined()
  })
})
