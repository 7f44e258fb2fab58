import { readFile } from 'node:fs/promises'
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import ToolRegistry, { defineTool } from '@deepseek-ai/dsh-tools'
import SystemPrompt, {
  SYSTEM_PROMPT_ERROR_CODES,
  SystemPromptError,
  isSystemPromptError,
} from '../src/index'
import type { PromptSectionInput } from '../src/index'

async function makeContext(): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(SystemPrompt)
  return ctx
}

function adding(...sections: PromptSectionInput[]) {
  return {
    name: 'adding',
    inject: ['systemPrompt'],
    apply(ctx: Context) {
      for (const section of sections) ctx.systemPrompt.add(section)
    },
  }
}

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  input: z.object({ text: z.string() }),
  execute: async (args) => args.text,
})

describe('sections', () => {
  it('sections are listed lower order first with 100 as the default', async () => {
    const ctx = await makeContext()
    ctx.systemPrompt.add({ name: 'tools', text: 'Use tools.' })
    ctx.systemPrompt.add({ name: 'late', text: 'Last.', order: 500 })
    ctx.systemPrompt.add({ name: 'intro', text: 'You are dsh.', order: 0 })
    expect(ctx.systemPrompt.sections()).toEqual([
      { name: 'intro', text: 'You are dsh.', order: 0 },
      { name: 'tools', text: 'Use tools.', order: 100 },
      { name: 'late', text: 'Last.', order: 500 },
    ])
  })

  it('sections with the same order keep the order they were added in', async () => {
    const ctx = await makeContext()
    for (const name of ['c', 'a', 'b']) ctx.systemPrompt.add({ name, text: name, order: 10 })
    expect(ctx.systemPrompt.sections().map((section) => section.name)).toEqual(['c', 'a', 'b'])
  })

  it('a second section with a taken name is refused and the first stays', async () => {
    const ctx = await makeContext()
    ctx.systemPrompt.add({ name: 'read', text: 'first' })
    const attempt = () => ctx.systemPrompt.add({ name: 'read', text: 'second' })
    expect(attempt).toThrow(SystemPromptError)
    expect(attempt).toThrow('A prompt section named "read" is already added.')
    expect(attempt).toThrow(expect.objectContaining({ code: 'PROMPT_DUPLICATE_SECTION' }))
    expect(ctx.systemPrompt.sections()).toEqual([{ name: 'read', text: 'first', order: 100 }])
  })

  it('a section without a name, text or finite order is refused', async () => {
    const ctx = await makeContext()
    const bad = [
      { name: '', text: 'x' },
      { name: 'x', text: 3 },
      { name: 'y', text: 'x', order: Number.NaN },
    ] as PromptSectionInput[]
    for (const section of bad) {
      expect(() => ctx.systemPrompt.add(section)).toThrow(
        expect.objectContaining({ code: 'PROMPT_INVALID_SECTION' }),
      )
    }
    expect(ctx.systemPrompt.sections()).toEqual([])
  })
})

describe('removal', () => {
  it('the returned function removes the section and frees its name', async () => {
    const ctx = await makeContext()
    const remove = ctx.systemPrompt.add({ name: 'a', text: 'one' })
    remove()
    expect(ctx.systemPrompt.sections()).toEqual([])
    ctx.systemPrompt.add({ name: 'a', text: 'two' })
    remove()
    expect(ctx.systemPrompt.sections().map((section) => section.text)).toEqual(['two'])
  })

  it('disposing the adding plugin removes its sections and nothing else', async () => {
    const ctx = await makeContext()
    ctx.systemPrompt.add({ name: 'base', text: 'Base.' })
    const fiber = await ctx.plugin(
      adding({ name: 'a', text: 'A.' }, { name: 'b', text: 'B.', order: 1 }),
    )
    expect(ctx.systemPrompt.sections().map((section) => section.name)).toEqual(['b', 'base', 'a'])
    await fiber.dispose()
    expect(ctx.systemPrompt.sections().map((section) => section.name)).toEqual(['base'])
    expect(ctx.systemPrompt.assemble().system).toBe('Base.')
  })
})

describe('assembly', () => {
  it('sections are joined by a blank line with the extra text last', async () => {
    const ctx = await makeContext()
    ctx.systemPrompt.add({ name: 'b', text: '\nSecond.\n\n' })
    ctx.systemPrompt.add({ name: 'a', text: 'First.', order: 1 })
    ctx.systemPrompt.add({ name: 'empty', text: '  ' })
    expect(ctx.systemPrompt.assemble('Workspace: /w').system).toBe(
      'First.\n\nSecond.\n\nWorkspace: /w',
    )
    expect(ctx.systemPrompt.assemble().system).toBe('First.\n\nSecond.')
  })

  it('without a tools registry the prompt is active and offers no tools', async () => {
    const ctx = await makeContext()
    ctx.systemPrompt.add({ name: 'a', text: 'A.' })
    expect(ctx.systemPrompt.assemble()).toEqual({ system: 'A.', tools: [] })
  })

  it('with a tools registry the registered schemas are offered', async () => {
    const ctx = await makeContext()
    await ctx.plugin(ToolRegistry)
    ctx.tools.register(echo)
    expect(ctx.systemPrompt.assemble().tools).toEqual(ctx.tools.schemas())
    expect(ctx.systemPrompt.assemble().tools.map((tool) => tool.name)).toEqual(['echo'])
  })

  it('a registry loaded after the prompt and then disposed is followed at each assembly', async () => {
    const ctx = await makeContext()
    const fiber = await ctx.plugin(ToolRegistry)
    ctx.tools.register(echo)
    expect(ctx.systemPrompt.assemble().tools).toHaveLength(1)
    await fiber.dispose()
    expect(ctx.systemPrompt.assemble().tools).toEqual([])
  })

  it('a registry loaded again after one was disposed is the one offered', async () => {
    const ctx = await makeContext()
    const first = await ctx.plugin(ToolRegistry)
    ctx.tools.register(echo)
    expect(ctx.systemPrompt.assemble().tools.map((tool) => tool.name)).toEqual(['echo'])
    await first.dispose()
    await ctx.plugin(ToolRegistry)
    ctx.tools.register({ ...echo, name: 'shout' })
    expect(ctx.systemPrompt.assemble().tools.map((tool) => tool.name)).toEqual(['shout'])
  })

  it('the text follows every added and removed section and each extra text', async () => {
    const ctx = await makeContext()
    ctx.systemPrompt.add({ name: 'a', text: 'A.' })
    expect(ctx.systemPrompt.assemble().system).toBe('A.')
    const remove = ctx.systemPrompt.add({ name: 'b', text: 'B.' })
    expect(ctx.systemPrompt.assemble().system).toBe('A.\n\nB.')
    expect(ctx.systemPrompt.assemble('X.').system).toBe('A.\n\nB.\n\nX.')
    remove()
    expect(ctx.systemPrompt.assemble('X.').system).toBe('A.\n\nX.')
    const plugin = await ctx.plugin(adding({ name: 'c', text: 'C.' }))
    expect(ctx.systemPrompt.assemble().system).toBe('A.\n\nC.')
    await plugin.dispose()
    expect(ctx.systemPrompt.assemble().system).toBe('A.')
  })

  it('an empty prompt assembles to an empty text', async () => {
    const ctx = await makeContext()
    expect(ctx.systemPrompt.assemble()).toEqual({ system: '', tools: [] })
  })
})

describe('one session', () => {
  it('a session gets its own sections and tools beside the shared ones, others do not', async () => {
    const ctx = await makeContext()
    await ctx.plugin(ToolRegistry)
    ctx.systemPrompt.add({ name: 'base', text: 'Base.' })
    const remove = ctx.systemPrompt.add(
      { name: 'servers', text: 'Servers.', order: 50 },
      { session: 's1' },
    )
    ctx.tools.register(echo, { session: 's1' })
    const own = ctx.systemPrompt.assemble('Extra.', 's1')
    expect(own.system).toBe('Servers.\n\nBase.\n\nExtra.')
    expect(own.tools.map((tool) => tool.name)).toEqual(['echo'])
    expect(ctx.systemPrompt.assemble('Extra.', 's2')).toEqual({
      system: 'Base.\n\nExtra.',
      tools: [],
    })
    expect(ctx.systemPrompt.assemble('Extra.').system).toBe('Base.\n\nExtra.')
    remove()
    expect(ctx.systemPrompt.assemble('Extra.', 's1').system).toBe('Base.\n\nExtra.')
  })

  it('a session section may not take a shared name, and two sessions may share one', async () => {
    const ctx = await makeContext()
    ctx.systemPrompt.add({ name: 'base', text: 'Base.' })
    expect(() => ctx.systemPrompt.add({ name: 'base', text: 'B.' }, { session: 's1' })).toThrow(
      expect.objectContaining({ code: 'PROMPT_DUPLICATE_SECTION' }),
    )
    ctx.systemPrompt.add({ name: 'servers', text: 'One.' }, { session: 's1' })
    ctx.systemPrompt.add({ name: 'servers', text: 'Two.' }, { session: 's2' })
    expect(ctx.systemPrompt.sections('s2').map((section) => section.text)).toEqual([
      'Base.',
      'Two.',
    ])
  })
})

describe('errors', () => {
  it('isSystemPromptError checks the class and, when given, the code', () => {
    const error = new SystemPromptError('PROMPT_DUPLICATE_SECTION', 'taken')
    expect(error.name).toBe('SystemPromptError')
    expect(isSystemPromptError(error)).toBe(true)
    expect(isSystemPromptError(error, 'PROMPT_DUPLICATE_SECTION')).toBe(true)
    expect(isSystemPromptError(error, 'PROMPT_INVALID_SECTION')).toBe(false)
    const lookalike = Object.assign(new Error('taken'), { code: 'PROMPT_DUPLICATE_SECTION' })
    expect(isSystemPromptError(lookalike)).toBe(false)
  })

  it('every code is listed once in the README error table', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
    for (const code of SYSTEM_PROMPT_ERROR_CODES) {
      const rows = readme.split('\n').filter((line) => line.startsWith(`| \`${code}\` |`))
      expect(rows).toHaveLength(1)
    }
  })
})
