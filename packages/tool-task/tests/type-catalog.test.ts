// The project's delegate types listed to the model before it names one: the section in the
// system prompt of each request (the delegate's too), following the files as they change, with
// skipped files told to the person once; and the section's caps.
import { mkdir, mkdtemp, realpath, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import Agents from '@deepseek-ai/dsh-agent'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmRequest, LlmScript, LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import { MemoryFileSystem } from '@deepseek-ai/dsh-fs/testing'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type { ToolNotice, ToolSessionChannels } from '@deepseek-ai/dsh-tools'
import * as ToolTask from '../src/index'

class RecordingLlm extends ScriptedLlm {
  readonly requests: LlmRequest[] = []

  override stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    this.requests.push(request)
    return super.stream(request)
  }
}

const disposers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(disposers.splice(0).map((dispose) => dispose()))
})

async function project(): Promise<{ dir: string; types: string }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-types-')))
  disposers.push(() => rm(dir, { recursive: true, force: true }))
  const types = join(dir, '.agents', 'agents')
  await mkdir(types, { recursive: true })
  return { dir, types }
}

async function host(cwd: string, turns: LlmScript['turns']) {
  const ctx = new Context()
  await ctx.plugin(MemoryFileSystem, { cwd: '/' })
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(RecordingLlm, { script: { turns } })
  const fiber = await ctx.plugin(Agents)
  const tools = await ctx.plugin(ToolTask)
  disposers.push(() => fiber.dispose())
  const notices: ToolNotice[] = []
  const channels: ToolSessionChannels = {
    ask: async () => ({ outcome: 'selected', optionId: 'allow_once' }),
    notice: (notice) => void notices.push(notice),
  }
  const agent = ctx.agents.create({ cwd, channels })
  return { ctx, agent, notices, tools, llm: ctx.llm as RecordingLlm }
}

const HEADING = '## Delegate types of this project'

describe('the delegate types section', () => {
  it("lists the project's types in every request, the delegate's too, and follows the files", async () => {
    const { dir, types } = await project()
    await writeFile(
      join(types, 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews a change\ntools: [read, grep]\n---\nYou review.\n',
    )
    await writeFile(join(types, 'broken.md'), 'no front matter\n')
    const { agent, llm, notices } = await host(dir, [
      {
        toolCalls: [
          { id: 't1', name: 'task', arguments: { description: 'look', prompt: 'Look.' } },
        ],
      },
      { text: 'Looked.' },
      { text: 'First done.' },
      { text: 'Second done.' },
      { text: 'Third done.' },
    ])
    await agent.send('one')
    const [parent, child, after] = llm.requests.map((request) => request.system)
    for (const system of [parent, child, after]) {
      expect(system).toContain(`${HEADING}\n`)
      expect(system).toContain('- reviewer: Reviews a change (tools: read, grep)')
    }
    // The skipped file is told once, though three requests read the types.
    expect(notices.map((notice) => notice.title)).toEqual([
      `Delegate type file ${join(types, 'broken.md')} was skipped`,
    ])

    await writeFile(
      join(types, 'writer.md'),
      '---\nname: writer\ndescription: Writes docs\n---\nYou write.\n',
    )
    await writeFile(
      join(types, 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews a pull request\n---\nYou review.\n',
    )
    await agent.send('two')
    const second = llm.requests[3]!.system
    expect(second).toContain('- reviewer: Reviews a pull request\n- writer: Writes docs')
    expect(second).not.toContain('Reviews a change')

    await unlink(join(types, 'reviewer.md'))
    await unlink(join(types, 'writer.md'))
    await agent.send('three')
    expect(llm.requests[4]!.system).not.toContain(HEADING)
  })

  it('a workspace without types gets no section, and the section goes with its session', async () => {
    const { dir, types } = await project()
    const { ctx, agent, llm } = await host(dir, [{ text: 'Hi.' }])
    await agent.send('hi')
    expect(llm.requests[0]!.system).not.toContain(HEADING)

    await writeFile(join(types, 'a.md'), '---\nname: a\ndescription: A type\n---\nBe a.\n')
    const other = ctx.agents.create({ cwd: dir })
    await other.send('hi')
    expect(llm.requests[1]!.system).toContain('- a: A type')
    const id = other.session.header.id
    expect(ctx.systemPrompt.sections(id).map((section) => section.name)).toContain(
      'tool-task/types',
    )
    await other.dispose()
    expect(ctx.systemPrompt.sections(id).map((section) => section.name)).not.toContain(
      'tool-task/types',
    )
  })
})

describe('the section text', () => {
  it('clips long descriptions and counts the types past the cap', () => {
    const many = Array.from({ length: ToolTask.TYPE_CATALOG_LIMITS.types + 2 }, (_, i) => ({
      name: `t${i}`,
      description: i === 0 ? 'x'.repeat(500) : `type ${i}`,
      prompt: 'p',
    }))
    const text = ToolTask.typeCatalogText(many)!
    const lines = text.split('\n')
    expect(lines[2]).toBe(`- t0: ${'x'.repeat(ToolTask.TYPE_CATALOG_LIMITS.description - 1)}…`)
    expect(lines.at(-1)).toBe('- (2 more, named in .agents/agents/)')
    expect(ToolTask.typeCatalogText([])).toBeUndefined()
  })
})
