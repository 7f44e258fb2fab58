// The plugin's life: it registers three tools and three prompt sections, and takes them all
// away when it is disposed. On the in-memory provider: the disk is the fs stack's tests' job.
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { MemoryFileSystem } from '@deepseek-ai/dsh-fs/testing'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import * as ToolFs from '../src/index'
import { testExecution, testSession } from '@deepseek-ai/dsh-tools/testing'

async function mount() {
  const ctx = new Context()
  await ctx.plugin(MemoryFileSystem)
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  const toolFs = await ctx.plugin(ToolFs)
  return { ctx, toolFs }
}

describe('loading and disposing', () => {
  it('registers three tools and three prompt sections and removes them on dispose', async () => {
    const { ctx, toolFs } = await mount()
    expect(ctx.tools.names()).toEqual(['read', 'write', 'edit'])
    const sections = ctx.systemPrompt.sections().map((section) => section.name)
    expect(sections).toEqual(['tool-fs/read', 'tool-fs/write', 'tool-fs/edit'])
    expect(ctx.systemPrompt.assemble().system).toContain('replace_all')
    await toolFs.dispose()
    expect(ctx.tools.names()).toEqual([])
    expect(ctx.systemPrompt.sections()).toEqual([])
    const result = await ctx.tools.execute(testExecution('read', {}))
    expect(result.error?.code).toBe('TOOL_UNKNOWN')
  })
})

describe('the provider it was applied with', () => {
  it('follows ctx.fs when the provider is replaced (the plugin is applied again)', async () => {
    const ctx = new Context()
    const first = await ctx.plugin(MemoryFileSystem)
    await ctx.plugin(ToolRegistry)
    await ctx.plugin(SystemPrompt)
    await ctx.plugin(ToolFs)
    const session = testSession({ cwd: '/workspace' })
    const read = () => ctx.tools.execute(testExecution('read', { file_path: 'a.txt' }, { session }))
    const memory = () => ctx.fs as MemoryFileSystem
    memory().putBytes('a.txt', Buffer.from('first\n'))
    expect((await read()).content[0]?.text).toContain('1: first')
    await first.dispose()
    await ctx.plugin(MemoryFileSystem)
    memory().putBytes('a.txt', Buffer.from('second\n'))
    expect((await read()).content[0]?.text).toContain('1: second')
  })
})
