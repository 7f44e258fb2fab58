import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import ToolRegistry, { ToolError, configOf, defineTool, isToolError } from '../src/index'
import { makeContext, readLike, registering } from './helpers/fixtures'
import { testExecution } from '../src/testing'

const other = defineTool({
  name: 'other',
  description: 'Another tool.',
  input: z.object({}),
  async execute() {
    return 'ok'
  },
})

describe('registration', () => {
  it('a registered tool is found by name and listed in registration order', async () => {
    const ctx = await makeContext()
    ctx.tools.register(readLike)
    ctx.tools.register(other)
    expect(ctx.tools.get('read')).toBe(readLike)
    expect(ctx.tools.get('missing')).toBeUndefined()
    expect(ctx.tools.names()).toEqual(['read', 'other'])
  })

  it('a second tool with a taken name is refused with TOOL_DUPLICATE', async () => {
    const ctx = await makeContext()
    ctx.tools.register(readLike)
    const attempt = () => ctx.tools.register({ ...other, name: 'read' })
    expect(attempt).toThrow(ToolError)
    expect(attempt).toThrow('A tool named "read" is already registered.')
    expect(ctx.tools.get('read')).toBe(readLike)
  })

  it('isToolError recognises a ToolError, optionally by code', () => {
    const error = new ToolError('TOOL_DUPLICATE', 'taken')
    expect(isToolError(error)).toBe(true)
    expect(isToolError(error, 'TOOL_DUPLICATE')).toBe(true)
    expect(isToolError(error, 'TOOL_UNKNOWN')).toBe(false)
    expect(isToolError(Object.assign(new Error('x'), { code: 'TOOL_DUPLICATE' }))).toBe(false)
  })

  it('a name a model api would reject is refused with TOOL_INVALID_DEFINITION', async () => {
    const ctx = await makeContext()
    for (const name of ['', 'has space', 'a'.repeat(65), 'dot.ted']) {
      expect(() => ctx.tools.register({ ...other, name })).toThrow(
        expect.objectContaining({ code: 'TOOL_INVALID_DEFINITION' }),
      )
    }
    expect(ctx.tools.names()).toEqual([])
  })

  it('an input that is not a zod object is refused with TOOL_INVALID_DEFINITION', async () => {
    const ctx = await makeContext()
    const bad = { ...other, input: z.string() } as unknown as typeof other
    expect(() => ctx.tools.register(bad)).toThrow('Tool "other" needs a zod object as input.')
  })

  it('an input json schema cannot express is refused when the tools are listed for a model', async () => {
    const ctx = await makeContext()
    const bad = { ...other, input: z.object({ when: z.date() }) } as unknown as typeof other
    ctx.tools.register(bad)
    expect(() => ctx.tools.schemas()).toThrow(
      /^Tool "other" has an input that JSON Schema cannot express/,
    )
  })
})

describe('disposal', () => {
  it('the returned disposer removes the tool and its schema', async () => {
    const ctx = await makeContext()
    const dispose = ctx.tools.register(readLike)
    dispose()
    expect(ctx.tools.get('read')).toBeUndefined()
    expect(ctx.tools.schemas()).toEqual([])
  })

  it('disposing the registering plugin leaves nothing registered', async () => {
    const ctx = await makeContext()
    ctx.tools.register(other)
    const fiber = await ctx.plugin(registering(readLike))
    expect(ctx.tools.names()).toEqual(['other', 'read'])
    await fiber.dispose()
    expect(ctx.tools.names()).toEqual(['other'])
    expect(ctx.tools.schemas().map((schema) => schema.name)).toEqual(['other'])
    const result = await ctx.tools.execute(testExecution('read', {}))
    expect(result.error?.code).toBe('TOOL_UNKNOWN')
  })

  it('a name freed by disposal can be registered again', async () => {
    const ctx = await makeContext()
    const fiber = await ctx.plugin(registering(readLike))
    await fiber.dispose()
    ctx.tools.register(readLike)
    expect(ctx.tools.names()).toEqual(['read'])
  })

  it('a stale disposer does not remove a later registration of the same name', async () => {
    const ctx = await makeContext()
    const first = ctx.tools.register(readLike)
    first()
    const replacement = { ...readLike, description: 'Second.' }
    ctx.tools.register(replacement)
    first()
    expect(ctx.tools.get('read')).toBe(replacement)
  })

  it('disposing the registry service takes ctx.tools away', async () => {
    const ctx = new Context()
    const fiber = await ctx.plugin(ToolRegistry)
    ctx.tools.register(readLike)
    await fiber.dispose()
    expect(ctx.get('tools')).toBeUndefined()
  })
})

describe('configOf', () => {
  it('gives a plugin the config cordis validated against its schema, defaults in', async () => {
    const Config = z.object({ limit: z.number().default(3), name: z.string() }).prefault({
      name: 'x',
    })
    const seen: { limit: number; name: string }[] = []
    const ctx = new Context()
    await ctx.plugin({
      Config,
      apply: (_ctx: Context, config: z.input<typeof Config>) =>
        void seen.push(configOf(Config, config)),
    })
    await ctx.plugin(
      {
        Config,
        apply: (_ctx: Context, config: z.input<typeof Config>) =>
          void seen.push(configOf(Config, config)),
      },
      { name: 'y', limit: 5 },
    )
    expect(seen).toEqual([
      { limit: 3, name: 'x' },
      { limit: 5, name: 'y' },
    ])
  })
})
