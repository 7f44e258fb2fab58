// A session's slash commands (SessionCommands): which command a name goes to, which are hidden,
// what a prompt names, and who is told of a change.
import { describe, expect, it } from 'vitest'
import { SessionCommands } from '../src/sessions/commands'
import type { SessionCommand } from '../src/sessions/commands'

const command = (name: string, origin?: string): SessionCommand => ({
  name,
  description: `${name} from ${origin ?? 'a built-in'}`,
  ...(origin !== undefined && { origin }),
  run: (text) => ({ reply: `${name}: ${text}` }),
})

describe('the commands of a session', () => {
  it('a name goes to the higher rank, then to the first offered', () => {
    const commands = new SessionCommands()
    const skill = command('review', 'skills/review/SKILL.md')
    const mine = command('review', 'commands/review.md')
    commands.offer('skills', 'skill', [skill, command('lint', 'skills/lint/SKILL.md')])
    commands.offer('mine', 'person', [mine])
    commands.offer('undo', 'built-in', [command('undo')])
    commands.offer('more', 'built-in', [command('undo', 'another')])
    expect(commands.list().map((c) => c.origin ?? c.name)).toEqual([
      'undo',
      'commands/review.md',
      'skills/lint/SKILL.md',
    ])
    expect(commands.shadowed()).toEqual([
      { hidden: skill, rank: 'skill', winner: mine },
      {
        hidden: expect.objectContaining({ origin: 'another' }),
        rank: 'built-in',
        winner: expect.objectContaining({ name: 'undo' }),
      },
    ])
  })

  it('an offer replaces what its key offered, and an empty one withdraws it', () => {
    const commands = new SessionCommands()
    commands.offer('mine', 'person', [command('one', 'a.md'), command('two', 'b.md')])
    commands.offer('mine', 'person', [command('two', 'c.md')])
    expect(commands.list().map((c) => c.origin)).toEqual(['c.md'])
    commands.offer('mine', 'person', [])
    expect(commands.list()).toEqual([])
    expect(commands.match('/two')).toBeUndefined()
  })

  it('a prompt names a command only as its first word, with the text after it trimmed', async () => {
    const commands = new SessionCommands()
    commands.offer('x', 'built-in', [command('compact')])
    const matched = commands.match('  /compact   keep the plan ')
    expect(matched?.text).toBe('keep the plan')
    expect(await matched?.command.run(matched.text)).toEqual({ reply: 'compact: keep the plan' })
    expect(commands.match('/compaction')).toBeUndefined()
    expect(commands.match('please /compact')).toBeUndefined()
    expect(commands.match('/a/b')).toBeUndefined()
  })

  it('each offer is told to every listener until it stops listening', () => {
    const commands = new SessionCommands()
    const seen: number[] = []
    const stop = commands.onChange(() => seen.push(commands.list().length))
    commands.offer('a', 'person', [command('one', 'a.md')])
    commands.offer('b', 'skill', [command('two', 'b.md')])
    stop()
    commands.offer('c', 'skill', [command('three', 'c.md')])
    expect(seen).toEqual([1, 2])
  })
})
