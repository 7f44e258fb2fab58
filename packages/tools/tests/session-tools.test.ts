// Tools registered for one session: found by that session's calls and cards only, listed in
// its schemas after the shared ones, unique by name within what the session sees, removed with
// their registrant; a tool's own JSON Schema; the wait for a session's tools still arriving.
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../src/index'
import type { ToolExecution } from '../src/index'
import { makeContext, readLike } from './helpers/fixtures'
import { testExecution, testSession } from '../src/testing'

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  input: z.looseObject({}),
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { word: { type: 'string' } },
    required: ['word'],
  },
  async execute(args) {
    return `looked up ${JSON.stringify(args)}`
  },
  presentCall: () => ({ title: 'Look up', kind: 'read' }),
})

function callIn(session: string, name: string, args: unknown = {}): ToolExecution {
  return testExecution(name, args, { session: testSession({ id: session, cwd: '/' }) })
}

async function withLookupIn(session: string): Promise<Context> {
  const ctx = await makeContext()
  ctx.tools.register(readLike)
  ctx.tools.register(lookup, { session })
  return ctx
}

describe('tools of one session', () => {
  it('a session tool is listed and run for its session only', async () => {
    const ctx = await withLookupIn('s1')
    expect(ctx.tools.names('s1')).toEqual(['read', 'lookup'])
    expect(ctx.tools.names('s2')).toEqual(['read'])
    expect(ctx.tools.names()).toEqual(['read'])
    const own = await ctx.tools.execute(callIn('s1', 'lookup', { word: 'x' }))
    expect(own.content).toEqual([{ type: 'text', text: 'looked up {"word":"x"}' }])
    const foreign = await ctx.tools.execute(callIn('s2', 'lookup', { word: 'x' }))
    expect(foreign.error?.code).toBe('TOOL_UNKNOWN')
    expect(foreign.content[0]?.text).toContain('Available tools: read.')
  })

  it('the model sees a session tool by its own json schema, without $schema', async () => {
    const ctx = await withLookupIn('s1')
    const schema = ctx.tools.schemas('s1').find((tool) => tool.name === 'lookup')
    expect(schema?.parameters).toEqual({
      type: 'object',
      properties: { word: { type: 'string' } },
      required: ['word'],
    })
    expect(ctx.tools.schemas('s2').map((tool) => tool.name)).toEqual(['read'])
  })

  it('cards of a session tool need the session in the view', async () => {
    const ctx = await withLookupIn('s1')
    expect(ctx.tools.presentCall('lookup', {}, { session: 's1' })?.title).toBe('Look up')
    expect(ctx.tools.presentCall('lookup', {}, { session: 's2' })).toBeUndefined()
    expect(ctx.tools.get('lookup', 's1')).toBe(lookup)
    expect(ctx.tools.get('lookup')).toBeUndefined()
  })

  it('a name taken in what a session sees is refused, in another session it is free', async () => {
    const ctx = await withLookupIn('s1')
    expect(() => ctx.tools.register(lookup, { session: 's1' })).toThrow(
      expect.objectContaining({ code: 'TOOL_DUPLICATE' }),
    )
    expect(() => ctx.tools.register({ ...lookup, name: 'read' }, { session: 's1' })).toThrow(
      expect.objectContaining({ code: 'TOOL_DUPLICATE' }),
    )
    expect(() => ctx.tools.register({ ...readLike, name: 'lookup' })).toThrow(
      expect.objectContaining({ code: 'TOOL_DUPLICATE' }),
    )
    ctx.tools.register(lookup, { session: 's2' })
    expect(ctx.tools.names('s2')).toEqual(['read', 'lookup'])
  })

  it('disposing a session tool removes it, and a registrant plugin takes its tools along', async () => {
    const ctx = await makeContext()
    const dispose = ctx.tools.register(lookup, { session: 's1' })
    dispose()
    expect(ctx.tools.names('s1')).toEqual([])
    const fiber = ctx.plugin({
      name: 'session-tools',
      inject: ['tools'],
      apply: (inner: Context) => void inner.tools.register(lookup, { session: 's3' }),
    })
    await fiber
    expect(ctx.tools.names('s3')).toEqual(['lookup'])
    await fiber.dispose()
    expect(ctx.tools.names('s3')).toEqual([])
  })

  it('parameters that are not an object are refused with TOOL_INVALID_DEFINITION', async () => {
    const ctx = await makeContext()
    const bad = { ...lookup, parameters: 'x' as unknown as Record<string, unknown> }
    expect(() => ctx.tools.register(bad)).toThrow(
      expect.objectContaining({ code: 'TOOL_INVALID_DEFINITION' }),
    )
  })
})

describe('a session whose tools are still arriving', () => {
  it('settled waits for every hold of the session and is undefined without one', async () => {
    const ctx = await makeContext()
    expect(ctx.tools.settled('s1')).toBeUndefined()
    let arrive = () => {}
    ctx.tools.hold('s1', new Promise<void>((resolve) => (arrive = resolve)))
    const failing = Promise.reject(new Error('the server did not start'))
    ctx.tools.hold('s1', failing)
    let settled = false
    void ctx.tools.settled('s1')?.then(() => (settled = true))
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(settled).toBe(false)
    expect(ctx.tools.settled('s2')).toBeUndefined()
    arrive()
    await ctx.tools.settled('s1')
    expect(settled).toBe(true)
    expect(ctx.tools.settled('s1')).toBeUndefined()
  })

  it('a hold ended early no longer holds the session', async () => {
    const ctx = await makeContext()
    const end = ctx.tools.hold('s1', new Promise(() => {}))
    expect(ctx.tools.settled('s1')).toBeInstanceOf(Promise)
    end()
    expect(ctx.tools.settled('s1')).toBeUndefined()
  })
})
