// The command sandbox over the BUILT bin's real stdio with the SDK's own client, in auto-edit:
// a command writing inside the workspace runs unasked and lands; one writing outside it runs
// unasked, does not land, and its card says why. With `--sandbox off` the same write outside
// is asked. Every frame the bin wrote is checked against the schema when the session closes.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { choose } from '@deepseek-ai/dsh-acp-testing'
import { itWithSandbox } from '@deepseek-ai/dsh-shell-sandbox/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { openLiveSession } from './helpers/live-session'
import type { LiveSession } from './helpers/live-session'

const dirs: string[] = []
async function tempDir(label: string, base = tmpdir()): Promise<string> {
  await mkdir(base, { recursive: true })
  const dir = await realpath(await mkdtemp(join(base, `dsh-sandbox-${label}-`)))
  dirs.push(dir)
  return dir
}

/**
 * Outside every root, and not under /tmp (a sandboxed command has a /tmp of its own; the
 * checkout itself may lie under /tmp, so not beside the sources either).
 */
const OUTSIDE_BASE = '/var/tmp/dsh-sandbox-tests'

beforeAll(() => ensureBuilt(), 420_000)
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

let live: LiveSession | undefined
afterEach(async () => {
  if (live !== undefined) expect(await live.close()).toBe(0)
  live = undefined
})

function textsOf(update: SessionUpdate | undefined): string[] {
  if (update?.sessionUpdate !== 'tool_call' && update?.sessionUpdate !== 'tool_call_update')
    return []
  return (update.content ?? []).flatMap((block) =>
    block.type === 'content' && block.content.type === 'text' ? [block.content.text] : [],
  )
}

const lastOf = (updates: SessionUpdate[], id: string) =>
  updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === id).at(-1)

/** Runs `commands` one per turn in a new session of the bin started with `args`. */
async function run(
  commands: string[],
  args: string[],
): Promise<{ session: LiveSession; workspace: string }> {
  const workspace = await tempDir('work')
  live = await openLiveSession({
    script: {
      turns: [
        ...commands.map((command, index) => ({
          toolCalls: [{ id: `b${index + 1}`, name: 'bash', arguments: { command } }],
        })),
        { text: 'Done.' },
      ],
    },
    workspace,
    home: await tempDir('home'),
    args,
    answer: choose('allow_once'),
  })
  await live.prompt('run them')
  return { session: live, workspace }
}

describe('the sandbox over stdio in auto-edit', () => {
  itWithSandbox(
    'lets a write inside land unasked and keeps one outside out, with a card saying why',
    async () => {
      const outside = await tempDir('outside', OUTSIDE_BASE)
      const { session, workspace } = await run(
        ['echo x > inside.txt', `echo x > ${outside}/f`],
        ['--mode', 'auto-edit'],
      )
      expect(session.permissionRequests).toHaveLength(0)
      expect(existsSync(join(workspace, 'inside.txt'))).toBe(true)
      expect(lastOf(session.updates, 'b1')).toMatchObject({ status: 'completed' })
      expect(existsSync(join(outside, 'f'))).toBe(false)
      const kept = lastOf(session.updates, 'b2')
      expect(kept).toMatchObject({ status: 'failed' })
      expect(textsOf(kept).join('\n')).toContain('Read-only file system')
      expect(textsOf(kept).at(-1)).toMatch(
        /^The sandbox kept this command's writes inside the workspace: .*escalate: true/,
      )
    },
  )

  it('asks about the same write with the sandbox off', async () => {
    const outside = await tempDir('outside', OUTSIDE_BASE)
    const { session } = await run(
      [`echo x > ${outside}/f`],
      ['--mode', 'auto-edit', '--sandbox', 'off'],
    )
    expect(session.permissionRequests).toHaveLength(1)
    expect(existsSync(join(outside, 'f'))).toBe(true)
  })
})
