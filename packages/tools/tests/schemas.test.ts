import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../src/index'
import { makeContext, readLike } from './helpers/fixtures'

describe('schemas', () => {
  it('a schema holds only name, description and the input json schema without $schema', async () => {
    const ctx = await makeContext()
    ctx.tools.register(readLike)
    expect(ctx.tools.schemas()).toEqual([
      {
        name: 'read',
        description: 'Reads a file.',
        parameters: {
          type: 'object',
          properties: {
            file_path: { type: 'string', description: 'Absolute path of the file.' },
            offset: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 },
            limit: { type: 'integer', exclusiveMinimum: 0, maximum: 2000 },
          },
          required: ['file_path'],
          additionalProperties: false,
        },
      },
    ])
  })

  it('a field with a default stays optional for the model', async () => {
    const ctx = await makeContext()
    ctx.tools.register(
      defineTool({
        name: 'edit',
        description: 'Edits.',
        input: z.object({ file_path: z.string(), replace_all: z.boolean().default(false) }),
        execute: async () => 'ok',
      }),
    )
    const parameters = ctx.tools.schemas()[0]?.parameters
    expect(parameters?.required).toEqual(['file_path'])
    expect(parameters?.properties).toEqual({
      file_path: { type: 'string' },
      replace_all: { type: 'boolean', default: false },
    })
  })

  it('a loose input does not forbid additional properties', async () => {
    const ctx = await makeContext()
    ctx.tools.register(
      defineTool({
        name: 'loose',
        description: 'Loose.',
        input: z.object({ a: z.string() }).loose(),
        execute: async () => 'ok',
      }),
    )
    expect(ctx.tools.schemas()[0]?.parameters.additionalProperties).toEqual({})
  })

  it('schemas are plain json that survives a round trip', async () => {
    const ctx = await makeContext()
    ctx.tools.register(readLike)
    const schemas = ctx.tools.schemas()
    expect(JSON.parse(JSON.stringify(schemas))).toEqual(schemas)
  })
})
