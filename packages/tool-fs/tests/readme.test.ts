// The schemas the README shows are the ones the model gets: each line of its schema block is
// compared with ctx.tools.schemas(), so a change to an input fails here until the README says it.
import { readFileSync } from 'node:fs'
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { MemoryFileSystem } from '@deepseek-ai/dsh-fs/testing'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import * as ToolFs from '../src/index'

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

/** `name {json}` lines of the README's schema block. */
function documentedSchemas(): Map<string, unknown> {
  const block = /Schemas[^\n]*\n\n```\n([\s\S]*?)\n```/.exec(README)?.[1] ?? ''
  const entries = block.split('\n').map((line) => {
    const at = line.indexOf(' {')
    return [line.slice(0, at).trim(), JSON.parse(line.slice(at + 1))] as const
  })
  return new Map(entries)
}

describe('the README', () => {
  it('shows exactly the schemas the model is given', async () => {
    const ctx = new Context()
    await ctx.plugin(MemoryFileSystem)
    await ctx.plugin(ToolRegistry)
    await ctx.plugin(SystemPrompt)
    await ctx.plugin(ToolFs)
    const actual = new Map(ctx.tools.schemas().map((schema) => [schema.name, schema.parameters]))
    expect(documentedSchemas()).toEqual(actual)
  })
})
