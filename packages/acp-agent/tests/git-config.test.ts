// A repository's git config against the BUILT bin over its real stdio, in `ask` with the
// sandbox off (what every machine without bubblewrap gets): a read-only git over a bare
// fixture whose config sets `core.worktree=..` and `core.fsmonitor` is asked, and git over
// the workspace's own repository runs unasked with the configured programs switched off, so
// nothing a config names runs. Every frame valid.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { choose } from '@deepseek-ai/dsh-acp-testing'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { openLiveSession } from './helpers/live-session'
import type { LiveSession } from './helpers/live-session'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-git-config')

beforeAll(() => ensureBuilt(), 420_000)
let live: LiveSession | undefined
afterEach(async () => {
  if (live !== undefined) expect(await live.close()).toBe(0)
  live = undefined
})

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' })
}

const bash = (id: string, command: string) => ({
  toolCalls: [{ id, name: 'bash', arguments: { command } }],
})

describe("a repository's git config over stdio", () => {
  it('runs no program a config names, asking for a fixture and not for the workspace', async () => {
    const workspace = await tempDir('work')
    const markers = await tempDir('markers')
    git(workspace, 'init', '-q')
    git(workspace, 'config', 'core.fsmonitor', `touch ${join(markers, 'own')}; false`)
    await writeFile(join(workspace, 'a.txt'), 'one\n')
    git(workspace, 'init', '-q', '--bare', 'fx.git')
    const fixture = join(workspace, 'fx.git')
    git(fixture, 'config', 'core.bare', 'false')
    git(fixture, 'config', 'core.worktree', '..')
    git(fixture, 'config', 'core.fsmonitor', `touch ${join(markers, 'fixture')}; false`)
    live = await openLiveSession({
      script: {
        turns: [
          bash('g1', 'git -C fx.git status'),
          bash('g2', 'git status --short'),
          { text: 'Done.' },
        ],
      },
      workspace,
      home: await tempDir('home'),
      args: ['--mode', 'ask', '--sandbox', 'off'],
      answer: choose('reject_once'),
    })
    await live.prompt('look at the repositories')
    expect(live.permissionRequests.map((request) => request.toolCall.title)).toEqual([
      'git -C fx.git status',
    ])
    expect(existsSync(join(markers, 'fixture'))).toBe(false)
    expect(existsSync(join(markers, 'own'))).toBe(false)
    const finished = live.updates.filter(
      (update) =>
        update.sessionUpdate === 'tool_call_update' &&
        update.toolCallId === 'g2' &&
        update.status === 'completed',
    )
    expect(finished).toHaveLength(1)
  })
})
