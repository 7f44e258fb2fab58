// The knowledge service in a Cordis stack: a session's first message opens its knowledge (the
// instruction note, the skills catalog as the session's own prompt section); disposing the
// plugin takes its context source, its listener and the catalog section away.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import Agents from '@deepseek-ai/dsh-agent'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it } from 'vitest'
import Knowledge from '../src'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

describe('the knowledge plugin', () => {
  it('loads, serves a session, and leaves nothing behind when disposed', async () => {
    const repo = await realpath(await mkdtemp(join(tmpdir(), 'dsh-knowledge-')))
    dirs.push(repo)
    await mkdir(join(repo, '.git'))
    await mkdir(join(repo, '.agents/skills/tidy'), { recursive: true })
    await writeFile(join(repo, 'AGENTS.md'), 'RULE\n')
    await writeFile(
      join(repo, '.agents/skills/tidy/SKILL.md'),
      '---\nname: tidy\ndescription: Tidy the imports.\n---\nSort them.\n',
    )
    const ctx = new Context()
    await ctx.plugin(ToolRegistry)
    await ctx.plugin(SystemPrompt)
    await ctx.plugin(ScriptedLlm, { script: { turns: [{ text: 'A.' }, { text: 'B.' }] } })
    await ctx.plugin(Agents)
    const fiber = await ctx.plugin(Knowledge)
    const agent = ctx.agents.create({ cwd: repo })
    const id = agent.session.header.id
    await agent.send('First')
    const notes = agent.session.events.filter((event) => event.type === 'context/note')
    expect(notes).toHaveLength(1)
    expect(ctx.knowledge.skills(id).map((skill) => skill.name)).toEqual(['tidy'])
    expect(ctx.systemPrompt.sections(id).map((section) => section.name)).toContain(
      'knowledge/skills',
    )
    await fiber.dispose()
    expect(ctx.systemPrompt.sections(id).map((section) => section.name)).not.toContain(
      'knowledge/skills',
    )
    await writeFile(join(repo, 'AGENTS.md'), 'RULE CHANGED\n')
    await agent.send('Second')
    expect(agent.session.events.filter((event) => event.type === 'context/note')).toHaveLength(1)
    await agent.dispose()
  })
})
