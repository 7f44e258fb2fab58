import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { describe, expect, it, vi } from 'vitest'
import { SessionCommands } from '@deepseek-ai/dsh-agent'
import type { SessionCommand } from '@deepseek-ai/dsh-agent'
import { DrawnCommands } from '../src/sessions/session-commands'
import type { AcpNotice } from '../src/sessions/session-opening'

function commandsWith() {
  const updates: SessionUpdate[] = []
  const notices: AcpNotice[] = []
  const commands = new SessionCommands()
  const drawn = new DrawnCommands(
    commands,
    (update) => updates.push(update),
    (notice) => notices.push(notice),
  )
  return { commands, drawn, updates, notices }
}

const prompt = (name: string, origin: string, text = name): SessionCommand => ({
  name,
  description: `${name} from ${origin}`,
  origin,
  run: (args) => ({ prompt: `${text} ${args}` }),
})

describe('slash commands', () => {
  it('/compact is a command at the start of a prompt only', () => {
    const { commands } = commandsWith()
    expect(commands.match('/compact')?.command.name).toBe('compact')
    expect(commands.match('  /compact keep the plan')?.text).toBe('keep the plan')
    expect(commands.match('/compaction')).toBeUndefined()
    expect(commands.match('please /compact')).toBeUndefined()
  })

  it('a built-in wins over the person, who wins over a skill; each shadowed one is told once', async () => {
    const { commands, updates, notices } = commandsWith()
    commands.offer('skills', 'skill', [prompt('review', 'skills/review/SKILL.md', 'skill')])
    commands.offer('mine', 'person', [
      prompt('review', 'commands/review.md', 'mine'),
      prompt('compact', 'commands/compact.md'),
    ])
    await vi.waitFor(() => expect(updates).toHaveLength(1))
    const [update] = updates
    expect(update).toMatchObject({ sessionUpdate: 'available_commands_update' })
    const names =
      update?.sessionUpdate === 'available_commands_update'
        ? update.availableCommands.map((c) => c.description)
        : []
    expect(names).toEqual([
      'Compact the conversation now: old tool outputs elided, older turns summarised',
      'review from commands/review.md',
    ])
    expect(notices.map((n) => n.title)).toEqual([
      'The command /review (skills/review/SKILL.md) is hidden by commands/review.md of the same name.',
      'The command /compact (commands/compact.md) is hidden by a built-in command of the same name.',
    ])
    expect(await commands.match('/review now')?.command.run('now')).toEqual({ prompt: 'mine now' })
    commands.offer('mine', 'person', [])
    await vi.waitFor(() => expect(updates).toHaveLength(2))
    expect(await commands.match('/review x')?.command.run('x')).toEqual({ prompt: 'skill x' })
    expect(notices).toHaveLength(2)
  })

  it('a closed session draws no more offers', async () => {
    const { commands, drawn, updates } = commandsWith()
    commands.offer('mine', 'person', [prompt('one', 'commands/one.md')])
    await vi.waitFor(() => expect(updates).toHaveLength(1))
    drawn.close()
    commands.offer('mine', 'person', [prompt('two', 'commands/two.md')])
    await new Promise<void>((resolve) => setImmediate(resolve))
    expect(updates).toHaveLength(1)
  })
})
