// Skills and the person's commands over the BUILT bin's real stdio, against a recording
// OpenAI-compatible server on 127.0.0.1: a skill listed in the catalog, loaded by the skill tool
// (its card) and run by /name; an invalid skill named in a notice; a command file as /name with
// its arguments in place; a command added while the session is open offered at once; a name
// clash told. HOME and XDG_CONFIG_HOME are temporary folders; every frame is schema-checked.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { requestText, startKnowledgeBin, writeTree } from './helpers/knowledge-bin'
import type { KnowledgeBin } from './helpers/knowledge-bin'
import { textAnswer, toolCallAnswer } from './helpers/recording-server'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-skills')

beforeAll(() => ensureBuilt(), 420_000)

const REVIEW = `---
name: review
description: Review a change for risky edits before it is committed.
---
# Review
REVIEW BODY: check every changed line against the tests.
`

/** The commands of the last `available_commands_update` that `match` accepts. */
async function commandsWhen(
  run: KnowledgeBin,
  match: (commands: acp.AvailableCommand[]) => boolean,
): Promise<acp.AvailableCommand[]> {
  const found = await run.client.waitForUpdate(
    ({ update }) =>
      update.sessionUpdate === 'available_commands_update' && match(update.availableCommands),
  )
  return found.update.sessionUpdate === 'available_commands_update'
    ? found.update.availableCommands
    : []
}

const named = (name: string) => (commands: acp.AvailableCommand[]) =>
  commands.some((command) => command.name === name)

describe('skills', () => {
  it('a skill is in the catalog, loaded by the skill tool, and run by /name; an invalid one is told', async () => {
    const repo = await tempDir('repo')
    await mkdir(join(repo, '.git'))
    await writeTree(repo, {
      '.agents/skills/review/SKILL.md': REVIEW,
      '.agents/skills/broken/SKILL.md': '---\nname: broken\n---\nNo description.\n',
    })
    const where = {
      home: await tempDir('home'),
      config: await tempDir('config'),
      store: await tempDir('store'),
    }
    const run = await startKnowledgeBin(where, [
      toolCallAnswer('s1', 'skill', { name: 'review' }),
      textAnswer('Reviewed.'),
      textAnswer('Reviewing src/a.ts.'),
    ])
    try {
      const session = await run.open(repo)
      const commands = await commandsWhen(run, named('review'))
      expect(commands).toContainEqual({
        name: 'review',
        description: 'Review a change for risky edits before it is committed.',
        input: { hint: 'what to do with the skill (optional)' },
      })
      expect(commands.map((command) => command.name)).toEqual(
        expect.arrayContaining(['compact', 'instructions']),
      )
      await run.client.waitForUpdate(
        ({ update }) => update.sessionUpdate === 'notice' && update.title.includes('broken'),
      )
      expect(run.shown()).toContain(
        '.agents/skills/broken/SKILL.md was skipped: its front matter has no "description".',
      )

      await run.prompt(session, 'Review my change')
      const [first, second] = run.model.bodies
      expect(first!.messages[0]!.content).toContain(
        '- review: Review a change for risky edits before it is committed.',
      )
      expect(first!.messages[0]!.content).not.toContain('broken')
      expect(first!.tools?.map((tool) => tool.function.name)).toContain('skill')
      const card = run.client.updates
        .map(({ update }) => update)
        .find((update) => update.sessionUpdate === 'tool_call')
      expect(card).toMatchObject({
        title: 'Load skill review',
        kind: 'read',
        locations: [{ path: join(repo, '.agents/skills/review/SKILL.md') }],
      })
      const result = second!.messages.at(-1)
      expect(result).toMatchObject({ role: 'tool' })
      expect(result!.content).toContain('REVIEW BODY: check every changed line against the tests.')
      expect(result!.content).toContain(join(repo, '.agents/skills/review'))

      await run.prompt(session, '/review src/a.ts')
      const ran = run.model.bodies[2]!.messages.at(-1)
      expect(ran).toMatchObject({ role: 'user' })
      expect(ran!.content).toContain('REVIEW BODY: check every changed line against the tests.')
      expect(ran!.content).toMatch(/src\/a\.ts$/)
    } finally {
      await run.close()
    }
  }, 60_000)
})

describe("the person's commands", () => {
  it('a command file is /name with its arguments in place, offered again when the files change', async () => {
    const repo = await tempDir('repo')
    await mkdir(join(repo, '.git'))
    await writeTree(repo, {
      '.agents/commands/greet.md':
        '---\ndescription: Greet someone\nargument-hint: <name>\n---\nSay hello to $ARGUMENTS, then again to $ARGUMENTS.\n',
      '.agents/commands/compact.md': 'This one is hidden by the built-in.\n',
      '.agents/skills/review/SKILL.md': REVIEW,
    })
    const where = {
      home: await tempDir('home'),
      config: await tempDir('config'),
      store: await tempDir('store'),
    }
    const run = await startKnowledgeBin(where, [textAnswer('Hello, Ada.'), textAnswer('Done.')])
    try {
      const session = await run.open(repo)
      const first = await commandsWhen(run, named('greet'))
      expect(first).toContainEqual({
        name: 'greet',
        description: 'Greet someone',
        input: { hint: '<name>' },
      })
      expect(first.filter((command) => command.name === 'compact')).toHaveLength(1)
      await run.prompt(session, '/greet Ada')
      expect(run.model.bodies[0]!.messages.at(-1)).toEqual({
        role: 'user',
        content: 'Say hello to Ada, then again to Ada.',
      })
      expect(run.shown().join('\n')).toContain(
        `The command /compact (${join(repo, '.agents/commands/compact.md')}) is hidden by a built-in command of the same name.`,
      )

      // A command of the person's own, written while the session is open, and one that hides a skill.
      await writeTree(where.config, {
        'dsh/commands/later.md': 'Summarise $ARGUMENTS in one line.\n',
      })
      await writeFile(join(repo, '.agents/commands/review.md'), 'My own review of $ARGUMENTS.\n')
      const later = await commandsWhen(
        run,
        (commands) =>
          named('later')(commands) &&
          named('review')(commands) &&
          commands.find((c) => c.name === 'review')?.description === 'My own review of $ARGUMENTS.',
      )
      expect(later.map((command) => command.name)).toContain('greet')
      await run.client.waitForUpdate(
        ({ update }) =>
          update.sessionUpdate === 'notice' && update.title.startsWith('The command /review'),
      )
      await run.prompt(session, '/later the log')
      expect(run.model.bodies[1]!.messages.at(-1)).toEqual({
        role: 'user',
        content: 'Summarise the log in one line.',
      })
      expect(requestText(run.model.bodies[1]!)).not.toContain('/later')
    } finally {
      await run.close()
    }
  }, 60_000)
})
