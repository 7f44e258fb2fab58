// What is written is what was judged, over the BUILT bin's real stdio with the SDK's own client:
// a directory on the path (or the file itself) swapped for a link to a place outside the
// workspace while the permission question is open, then allowed, fails the call with
// FS_PATH_CHANGED and writes nothing anywhere; 500 auto-edit writes raced by a process that
// swaps the directory for a link in a loop never put a byte outside.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import {
  link,
  lstat,
  mkdir,
  readdir,
  readFile,
  rename,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises'
import { join } from 'node:path'
import type { RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk'
import { choose } from '@deepseek-ai/dsh-acp-testing'
import type { PermissionAnswerer } from '@deepseek-ai/dsh-acp-testing'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { openLiveSession } from './helpers/live-session'
import type { LiveSession } from './helpers/live-session'

const tempDir = tempDirs('dsh-swap')

beforeAll(() => ensureBuilt(), 420_000)
let live: LiveSession | undefined
afterEach(async () => {
  expect(await live?.close()).toBe(0)
  live = undefined
})

type Call = { id: string; name: string; arguments: Record<string, unknown> }
const call = (id: string, name: string, args: Record<string, unknown>): Call => ({
  id,
  name,
  arguments: args,
})

interface Setup {
  session: LiveSession
  workspace: string
  outside: string
}

async function open(
  turns: Call[][],
  answer: (workspace: string, outside: string) => PermissionAnswerer,
  args: string[] = [],
  prepare: (workspace: string, outside: string) => Promise<void> = async () => undefined,
): Promise<Setup> {
  const workspace = await tempDir('work')
  const outside = await tempDir('outside')
  await mkdir(join(workspace, 'sub'))
  await prepare(workspace, outside)
  live = await openLiveSession({
    script: { turns: [...turns.map((toolCalls) => ({ toolCalls })), { text: 'Done.' }] },
    workspace,
    home: await tempDir('home'),
    args,
    answer: answer(workspace, outside),
  })
  return { session: live, workspace, outside }
}

/** Swaps `sub` for a link to `outside` when asked about an edit, then allows it. */
function swapThenAllow(swap: (workspace: string, outside: string) => Promise<void>) {
  return (workspace: string, outside: string): PermissionAnswerer =>
    async (request): Promise<RequestPermissionResponse> => {
      if (request.toolCall.kind === 'edit') await swap(workspace, outside)
      return choose('allow_once')(request)
    }
}

async function swapSub(workspace: string, outside: string): Promise<void> {
  await rename(join(workspace, 'sub'), join(workspace, 'sub.moved'))
  await symlink(outside, join(workspace, 'sub'))
}

type ToolCard = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>

const cardOf =
  (toolCallId: string) =>
  (update: SessionUpdate): update is ToolCard =>
    (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
    update.toolCallId === toolCallId

function lastUpdate(updates: readonly SessionUpdate[], toolCallId: string) {
  return updates.findLast(cardOf(toolCallId))
}

function failureCode(updates: readonly SessionUpdate[], toolCallId: string): unknown {
  const update = lastUpdate(updates, toolCallId)
  if (update?.status !== 'failed') return undefined
  const raw = update.rawOutput as { error?: { code?: unknown } } | undefined
  return raw?.error?.code
}

describe('a directory swapped for a link while the question is open', () => {
  it('fails the allowed write with FS_PATH_CHANGED and writes nothing anywhere', async () => {
    const { session, workspace, outside } = await open(
      [[call('w1', 'write', { file_path: 'sub/new.txt', content: 'escaped' })]],
      swapThenAllow(swapSub),
    )
    expect(await session.prompt('write')).toEqual({ stopReason: 'end_turn' })
    expect(session.permissionRequests).toHaveLength(1)
    expect(failureCode(session.updates, 'w1')).toBe('FS_PATH_CHANGED')
    expect(await readdir(outside)).toEqual([])
    expect(await readdir(join(workspace, 'sub.moved'))).toEqual([])
  })

  it('fails the allowed edit with FS_PATH_CHANGED though the file outside is the same', async () => {
    const { session, workspace, outside } = await open(
      [
        [call('r1', 'read', { file_path: 'sub/a.txt' })],
        [call('e1', 'edit', { file_path: 'sub/a.txt', old_string: 'one', new_string: 'two' })],
      ],
      swapThenAllow(swapSub),
      [],
      async (workspace, outside) => {
        await writeFile(join(workspace, 'sub/a.txt'), 'one\n')
        // The very same inode outside, linked before the read: its version is the one read.
        await link(join(workspace, 'sub/a.txt'), join(outside, 'a.txt'))
      },
    )
    await session.prompt('edit')
    expect(failureCode(session.updates, 'e1')).toBe('FS_PATH_CHANGED')
    expect(await readFile(join(outside, 'a.txt'), 'utf8')).toBe('one\n')
    expect(await readFile(join(workspace, 'sub.moved/a.txt'), 'utf8')).toBe('one\n')
    expect(await readdir(outside)).toEqual(['a.txt'])
  })
})

describe('the file itself swapped for a link while the question is open', () => {
  it('fails the allowed edit and write and leaves the files outside as they were', async () => {
    const { session, outside } = await open(
      [
        [call('r1', 'read', { file_path: 'a.txt' })],
        [call('e1', 'edit', { file_path: 'a.txt', old_string: 'one', new_string: 'two' })],
        [call('w1', 'write', { file_path: 'new.txt', content: 'escaped' })],
      ],
      swapThenAllow(async (workspace, outside) => {
        if (!(await readdir(outside)).includes('a.txt')) {
          await link(join(workspace, 'a.txt'), join(outside, 'a.txt'))
          await unlink(join(workspace, 'a.txt'))
          await symlink(join(outside, 'a.txt'), join(workspace, 'a.txt'))
        } else {
          await symlink(join(outside, 'new.txt'), join(workspace, 'new.txt'))
        }
      }),
      [],
      (workspace) => writeFile(join(workspace, 'a.txt'), 'one\n'),
    )
    await session.prompt('edit, then write')
    expect(session.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual([
      'e1',
      'w1',
    ])
    // Unlinking the file's name changed its version too, so the edit would also be stale: it is
    // refused for what happened, the place changed. The new file would have been made outside.
    expect(['e1', 'w1'].map((id) => failureCode(session.updates, id))).toEqual([
      'FS_PATH_CHANGED',
      'FS_PATH_CHANGED',
    ])
    expect(await readFile(join(outside, 'a.txt'), 'utf8')).toBe('one\n')
    expect(await readdir(outside)).toEqual(['a.txt'])
  })
})

const WRITES = 500
const PER_TURN = 50

/**
 * A child process that swaps `sub` for a link to `outside` and back, over and over: the
 * directory stays up to 3 ms, the link up to 1 ms, so some writes land and some meet the link.
 */
function startSwapper(workspace: string, outside: string) {
  const source = `
    const fs = require('node:fs')
    const [sub, moved, outside] = process.argv.slice(1)
    const quietly = (work) => { try { work() } catch {} }
    const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
    for (let swaps = 1; ; swaps++) {
      pause(Math.random() * 3)
      quietly(() => fs.renameSync(sub, moved))
      quietly(() => fs.symlinkSync(outside, sub))
      pause(Math.random())
      quietly(() => fs.unlinkSync(sub))
      quietly(() => fs.renameSync(moved, sub))
      if (swaps % 100 === 0) fs.writeSync(1, swaps + '\\n')
    }`
  const sub = join(workspace, 'sub')
  const child = spawn(process.execPath, ['-e', source, sub, join(workspace, 'moved'), outside])
  let swaps = 0
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    swaps = Number(text.trim().split('\n').at(-1))
  })
  return {
    async stop(): Promise<number> {
      const exited = once(child, 'exit')
      child.kill('SIGKILL')
      await exited
      // Back to a directory, wherever the loop was stopped.
      if ((await lstat(sub).catch(() => undefined))?.isSymbolicLink()) await unlink(sub)
      await rename(join(workspace, 'moved'), sub).catch(() => undefined)
      return swaps
    },
  }
}

/** Every file under `dir` (links not followed), by name, with its content. */
async function filesUnder(dir: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>()
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8')
    found.set(entry.name, [...(found.get(entry.name) ?? []), text])
  }
  return found
}

describe('a swap loop racing auto-edit writes', () => {
  it(`puts no byte outside in ${WRITES} writes, and each completed write lands inside once`, async () => {
    const turns = Array.from({ length: WRITES / PER_TURN }, (_, turn) =>
      Array.from({ length: PER_TURN }, (_, index) => {
        const n = turn * PER_TURN + index
        return call(`w${n}`, 'write', { file_path: `sub/f${n}.txt`, content: `write ${n}\n` })
      }),
    )
    const { session, workspace, outside } = await open(turns, () => choose('reject_once'), [
      '--mode',
      'auto-edit',
    ])
    const swapper = startSwapper(workspace, outside)
    const prompted = await session.prompt('write them all').catch((error: unknown) => error)
    const swaps = await swapper.stop()
    expect(prompted).toEqual({ stopReason: 'end_turn' })
    expect(await readdir(outside)).toEqual([])
    const inside = await filesUnder(workspace)
    const outcomes = new Map<string, number>()
    for (let n = 0; n < WRITES; n++) {
      const update = lastUpdate(session.updates, `w${n}`)
      const status = update?.status
      const outcome =
        status === 'completed' ? 'completed' : String(failureCode(session.updates, `w${n}`))
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
      if (outcome === 'completed') expect(inside.get(`f${n}.txt`)).toEqual([`write ${n}\n`])
      else expect(inside.has(`f${n}.txt`)).toBe(false)
    }
    expect([...outcomes.keys()].sort()).toEqual(
      expect.arrayContaining(['completed', 'FS_PATH_CHANGED']),
    )
    console.log(
      `swap race: ${WRITES} auto-edit writes against ${swaps}+ swaps of the directory for a link; ${[...outcomes].map(([key, count]) => `${key} ${count}`).join(', ')}; 0 bytes outside`,
    )
  }, 120_000)
})
