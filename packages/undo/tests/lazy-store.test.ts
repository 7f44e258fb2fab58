// The undo service chooses its store at the first need: no `git --version` at start or when a
// new session opens (a process started then would sit on the first answer's path), one at the
// first /undo, and a git that cannot run leaves the files store.
import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Context } from 'cordis'
import Agents from '@deepseek-ai/dsh-agent'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import { describe, expect, it, vi } from 'vitest'
import * as git from '../src/git'
import { NO_GIT_LINE } from '../src/commands'
import Undo from '../src/index'
import { tempDir } from './helpers/turns'

vi.mock('../src/git', async (original) => {
  const actual = await original<typeof import('../src/git')>()
  return { ...actual, gitVersion: vi.fn(actual.gitVersion) }
})

async function openSession(root: string, program: string) {
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(ScriptedLlm, { script: { turns: [] } })
  await ctx.plugin(Agents)
  const fiber = await ctx.plugin(Undo, { dir: join(root, 'snapshots'), git: program })
  const agent = ctx.agents.create({ cwd: root })
  const stop = ctx.undo.open(agent, { warn: () => {} })
  const undo = async () => {
    const matched = agent.commands.match('/undo')
    const reply = await matched?.command.run(matched.text)
    return reply && 'reply' in reply ? reply.reply : ''
  }
  const close = async () => {
    stop()
    await agent.dispose()
    await fiber.dispose()
  }
  return { undo, close }
}

describe('the store chosen at its first use', () => {
  it('looks for git at the first /undo, not at start nor when a session opens', async () => {
    vi.mocked(git.gitVersion).mockClear()
    const session = await openSession(await tempDir('lazy'), 'git')
    expect(git.gitVersion).not.toHaveBeenCalled()
    const reply = await session.undo()
    expect(reply).toContain('Nothing to undo')
    expect(reply).not.toContain(NO_GIT_LINE)
    expect(git.gitVersion).toHaveBeenCalledTimes(1)
    await session.undo()
    expect(git.gitVersion).toHaveBeenCalledTimes(1)
    await session.close()
  })

  it('takes a git that cannot run for none: the reply says commands are not covered', async () => {
    const root = await tempDir('lazy-broken')
    const broken = join(root, 'git')
    await writeFile(broken, '#!/bin/sh\nexit 127\n')
    await chmod(broken, 0o755)
    const session = await openSession(root, broken)
    expect(await session.undo()).toContain(NO_GIT_LINE)
    await session.close()
  })
})
