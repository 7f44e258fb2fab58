// The knowledge service in a Cordis stack: a session's first message opens its knowledge (the
// instruction note, the skills catalog as the session's own prompt section); disposing the
// plugin takes its context source, its listener and the catalog section away. A session's
// knowledge offered as its slash commands (agent.commands), and withdrawn from the files' watch.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import Agents from '@deepseek-ai/dsh-agent'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it } from 'vitest'
import Knowledge, { offerKnowledgeCommands } from '../src'

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

  it("offers a session's skills, commands and /instructions as its slash commands", async () => {
    const repo = await realpath(await mkdtemp(join(tmpdir(), 'dsh-knowledge-')))
    dirs.push(repo)
    await mkdir(join(repo, '.git'))
    await mkdir(join(repo, '.agents/skills/tidy'), { recursive: true })
    await mkdir(join(repo, '.agents/commands'), { recursive: true })
    await writeFile(join(repo, 'AGENTS.md'), 'RULE\n')
    await writeFile(
      join(repo, '.agents/skills/tidy/SKILL.md'),
      '---\nname: tidy\ndescription: Tidy the imports.\n---\nSort them.\n',
    )
    await writeFile(join(repo, '.agents/commands/ship.md'), 'Ship it: $ARGUMENTS\n')
    await writeFile(join(repo, '.agents/commands/tidy.md'), 'Mine wins.\n')
    await mkdir(join(repo, '.agents/skills/broken'))
    await writeFile(join(repo, '.agents/skills/broken/SKILL.md'), 'no front matter\n')
    const ctx = new Context()
    await ctx.plugin(ToolRegistry)
    await ctx.plugin(SystemPrompt)
    await ctx.plugin(ScriptedLlm, { script: { turns: [{ text: 'A.' }] } })
    await ctx.plugin(Agents)
    const fiber = await ctx.plugin(Knowledge, { home: repo, configHome: join(repo, 'config') })
    const agent = ctx.agents.create({ cwd: repo })
    const warned: string[] = []
    const stop = offerKnowledgeCommands(
      agent.commands,
      await ctx.knowledge.session(agent),
      (title) => warned.push(title),
    )
    expect(agent.commands.list().map((c) => c.name)).toEqual(['instructions', 'ship', 'tidy'])
    expect(agent.commands.shadowed().map((s) => s.hidden.origin)).toEqual([
      join(repo, '.agents/skills/tidy/SKILL.md'),
    ])
    expect(warned).toEqual([expect.stringContaining('broken/SKILL.md was skipped')])
    const ship = agent.commands.match('/ship now')
    expect(await ship?.command.run(ship.text)).toEqual({ prompt: 'Ship it: now' })
    await agent.send('First') // loads the instruction files
    const listing = await agent.commands.match('/instructions')?.command.run('')
    expect(listing).toEqual({ reply: expect.stringContaining('AGENTS.md') })
    stop()
    await agent.dispose()
    await fiber.dispose()
  })
})
