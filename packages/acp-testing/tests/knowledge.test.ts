// The project's knowledge in the harness, as the app loads it, in memory through the SDK's
// client: /instructions before and after the first message, a nested file's note once a read
// reaches its folder (a notice to a client that shows them), and a command file that is not
// valid named with its problem. The person's places are temporary folders.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { chunkText, useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function place(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-knowledge-place-')))
  dirs.push(dir)
  return dir
}

describe('project knowledge in the harness', () => {
  it('lists the files loaded, adds a nested one once read, and names a broken command', async () => {
    const home = await place()
    const configHome = await place()
    await mkdir(join(configHome, 'dsh/commands'), { recursive: true })
    await writeFile(join(configHome, 'dsh/commands/bad.md'), '---\ndescription: [oops\n---\nx\n')
    const harness = await makeHarness({
      script: {
        turns: [
          { toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'sub/a.txt' } }] },
          { text: 'Read.' },
        ],
      },
      withFs: true,
      mode: 'full-access',
      notices: true,
      withKnowledge: { home, configHome },
    })
    const { workspace } = harness
    await writeFile(join(workspace, 'AGENTS.md'), 'Top rule.\n')
    await mkdir(join(workspace, 'sub'))
    await writeFile(join(workspace, 'sub/AGENTS.md'), 'Sub rule.\n')
    await writeFile(join(workspace, 'sub/a.txt'), 'a\n')
    const session = await harness.newSession()
    await harness.waitForUpdate(
      ({ update }) => update.sessionUpdate === 'notice' && update.title.includes('bad.md'),
    )
    await harness.prompt(session, '/instructions')
    expect(chunkText(harness.updatesOf(session))).toContain('No instruction files are loaded yet')
    await harness.prompt(session, 'Read it')
    const notices = harness
      .updatesOf(session)
      .flatMap((update) => (update.sessionUpdate === 'notice' ? [update.title] : []))
    expect(notices).toContain('Project instructions: AGENTS.md')
    expect(notices).toContain('Project instructions: sub/AGENTS.md')
    expect(notices.find((title) => title.includes('bad.md'))).toMatch(
      /dsh\/commands\/bad\.md was skipped: its front matter is not valid YAML/,
    )
    const events = harness.ctx.agents.get(session)!.session.events
    const notes = events.filter((event) => event.type === 'context/note')
    expect(notes).toHaveLength(2)
    await harness.prompt(session, '/instructions')
    const listing = chunkText(harness.updatesOf(session))
    expect(listing).toContain('- AGENTS.md (10 characters)')
    expect(listing).toContain('- sub/AGENTS.md (10 characters)')
  })
})
