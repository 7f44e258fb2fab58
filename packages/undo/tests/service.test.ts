// ctx.undo in a Cordis stack below the bridge: a session it follows offers `/undo` and `/redo`
// among its own commands (agent.commands) and answers them without the model.
import { join } from 'node:path'
import { Context } from 'cordis'
import Agents from '@deepseek-ai/dsh-agent'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import Undo from '../src/index'
import { tempDir } from './helpers/turns'

describe('the undo service', () => {
  it('offers /undo and /redo to a session it follows and answers them without the model', async () => {
    const root = await tempDir('service')
    const ctx = new Context()
    await ctx.plugin(ToolRegistry)
    await ctx.plugin(SystemPrompt)
    await ctx.plugin(ScriptedLlm, { script: { turns: [] } })
    await ctx.plugin(Agents)
    const fiber = await ctx.plugin(Undo, { dir: join(root, 'snapshots') })
    const agent = ctx.agents.create({ cwd: root })
    const warned: string[] = []
    const stop = ctx.undo.open(agent, { warn: (title) => warned.push(title) })
    expect(agent.commands.list().map((c) => c.name)).toEqual(['undo', 'redo'])
    const undo = agent.commands.match('/undo')
    const reply = await undo?.command.run(undo.text)
    expect(reply).toEqual({
      reply: expect.stringContaining('Nothing to undo: no earlier turn of this session changed'),
    })
    const refused = await agent.commands.match('/redo now')?.command.run('now')
    expect(refused).toEqual({ reply: expect.stringContaining('/redo takes no text but') })
    stop()
    expect(warned).toEqual([])
    await agent.dispose()
    await fiber.dispose()
  })
})
