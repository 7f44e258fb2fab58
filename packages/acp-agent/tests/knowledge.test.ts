// The project's knowledge over the BUILT bin's real stdio, against a recording OpenAI-compatible
// server on 127.0.0.1: instruction files (the root's first, a nested one once a read reaches its
// folder, a change sent again, the same text once, a file over its limit cut and said so, all
// still there after a compaction and after session/load in a new process), skills (the catalog,
// the skill tool, /name) and the person's commands (/name with $ARGUMENTS, updated when the
// files change). HOME and XDG_CONFIG_HOME are temporary folders; every frame is schema-checked.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { countIn, requestText, startKnowledgeBin, writeTree } from './helpers/knowledge-bin'
import type { KnowledgePlaces } from './helpers/knowledge-bin'
import { textAnswer, toolCallAnswer } from './helpers/recording-server'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-knowledge')

beforeAll(() => ensureBuilt(), 420_000)

async function places(): Promise<KnowledgePlaces> {
  return {
    home: await tempDir('home'),
    config: await tempDir('config'),
    store: await tempDir('store'),
  }
}

/** A repository (a `.git` folder at its root) with `files`. */
async function repository(files: Record<string, string>): Promise<string> {
  const root = await tempDir('repo')
  await mkdir(join(root, '.git'))
  await writeTree(root, files)
  return root
}

describe('instruction files', () => {
  it('the root file goes first, a nested one once its folder is reached, a changed one again', async () => {
    const repo = await repository({
      'AGENTS.md': 'ROOT RULE: run tests with pnpm vitest.\n',
      'packages/app/AGENTS.md': 'APP RULE: never touch generated/.\n',
      'packages/app/src/x.ts': 'export const x = 1\n',
    })
    const run = await startKnowledgeBin(await places(), [
      toolCallAnswer('r1', 'read', { file_path: 'packages/app/src/x.ts' }),
      textAnswer('Read it.'),
      textAnswer('Noted the new rule.'),
      textAnswer('Nothing new.'),
    ])
    try {
      const session = await run.open(repo)
      await run.prompt(session, 'Look at x.ts')
      const [first, second] = run.model.bodies
      expect(countIn(first, 'ROOT RULE: run tests')).toBe(1)
      expect(countIn(first, 'APP RULE')).toBe(0)
      // The project's words, outranked by the system prompt and the person.
      expect(requestText(first!)).toContain('the system prompt and the person win')
      expect(first!.messages[0]!.content).not.toContain('ROOT RULE')
      expect(countIn(second, 'APP RULE: never touch generated/.')).toBe(1)
      expect(countIn(second, 'ROOT RULE')).toBe(1)
      // The request after the read keeps the first one's messages as its prefix.
      expect(second!.messages.slice(0, first!.messages.length)).toEqual(first!.messages)
      expect(requestText(second!)).toContain(`applies-to="${join(repo, 'packages/app')}`)

      await writeFile(join(repo, 'AGENTS.md'), 'ROOT RULE v2: run tests with npm test.\n')
      await run.prompt(session, 'Go on')
      const third = run.model.bodies[2]
      expect(countIn(third, 'ROOT RULE v2: run tests with npm test.')).toBe(1)
      expect(countIn(third, 'APP RULE')).toBe(1)
      expect(requestText(third!)).toContain('replaces the one sent before')
      await run.prompt(session, 'And now?')
      const fourth = run.model.bodies[3]
      expect(countIn(fourth, 'ROOT RULE v2')).toBe(1)
      expect(countIn(fourth, 'APP RULE')).toBe(1)

      const shown = run.shown()
      expect(shown).toContain('Project instructions: AGENTS.md')
      expect(shown).toContain('Project instructions: packages/app/AGENTS.md')
      expect(shown).toContain('Project instructions: AGENTS.md (changed)')
      const requests = run.model.bodies.length
      await run.prompt(session, '/instructions')
      expect(run.model.bodies).toHaveLength(requests)
      const listing = run.shown().at(-1)
      expect(listing).toContain('- AGENTS.md (')
      expect(listing).toContain('- packages/app/AGENTS.md (')
      expect(listing).toContain('20000 characters a file')
    } finally {
      await run.close()
    }
  }, 60_000)

  it('the global file comes first, a CLAUDE.md like AGENTS.md is sent once, and an oversized file is cut', async () => {
    const rules = 'SHARED RULE: keep functions short.\n'
    const line = 'A long rule line that repeats to make the file big.\n'
    const repo = await repository({
      'AGENTS.md': rules,
      'CLAUDE.md': rules,
      'AGENTS.local.md': `LOCAL START\n${line.repeat(600)}LOCAL END\n`,
    })
    const where = await places()
    await writeTree(where.config, { 'dsh/AGENTS.md': 'GLOBAL RULE: answer in English.\n' })
    const run = await startKnowledgeBin(where, [textAnswer('Fine.')])
    try {
      const session = await run.open(repo)
      await run.prompt(session, 'Hello')
      const [first] = run.model.bodies
      const text = requestText(first!)
      expect(countIn(first, 'SHARED RULE')).toBe(1)
      expect(text.indexOf('GLOBAL RULE')).toBeGreaterThan(-1)
      expect(text.indexOf('GLOBAL RULE')).toBeLessThan(text.indexOf('SHARED RULE'))
      expect(text).toContain('LOCAL START')
      expect(text).not.toContain('LOCAL END')
      const size = `LOCAL START\n${line.repeat(600)}LOCAL END\n`.length
      expect(text).toMatch(
        new RegExp(`\\[cut: the file has ${size} characters and only its first \\d+ are shown`),
      )
      expect(run.shown().join('\n')).toMatch(/AGENTS\.local\.md \(cut to \d+ of \d+ characters\)/)
      await run.prompt(session, '/instructions')
      expect(run.shown().at(-1)).toContain('- CLAUDE.md: the same text as AGENTS.md, sent once')
    } finally {
      await run.close()
    }
  }, 60_000)

  it('the instructions are still in the request after a compaction and after session/load', async () => {
    const repo = await repository({ 'AGENTS.md': 'KEEP RULE: tabs, not spaces.\n' })
    const where = await places()
    const run = await startKnowledgeBin(where, [
      textAnswer('Hello.'),
      textAnswer('The person greeted; nothing else happened.'),
      textAnswer('Still here.'),
    ])
    const session = await run.open(repo)
    try {
      await run.prompt(session, 'Hi')
      await run.prompt(session, '/compact')
      const summary = run.model.bodies[1]
      expect(requestText(summary!)).not.toContain('KEEP RULE')
      await run.prompt(session, 'Still there?')
      const after = run.model.bodies[2]
      expect(countIn(after, 'KEEP RULE: tabs, not spaces.')).toBe(1)
      expect(requestText(after!)).toContain('The person greeted; nothing else happened.')
    } finally {
      await run.close()
    }
    const again = await startKnowledgeBin(where, [textAnswer('Back.')])
    try {
      await again.open(repo, session)
      await again.prompt(session, 'After the load')
      const [loaded] = again.model.bodies
      expect(countIn(loaded, 'KEEP RULE: tabs, not spaces.')).toBe(1)
      expect(requestText(loaded!)).toContain('The person greeted; nothing else happened.')
    } finally {
      await again.close()
    }
  }, 90_000)
})
