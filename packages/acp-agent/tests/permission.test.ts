// Asking before a change, over the BUILT bin's real stdio with the SDK's own client: the same
// promises as in memory — the pending card with its diff, the options, allow, always allow,
// reject, cancel while asked, the modes and the workspace roots — and every frame valid.
import { readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { RequestError } from '@agentclientprotocol/sdk'
import type { RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk'
import { choose } from '@deepseek-ai/dsh-acp-testing'
import type { PermissionAnswerer } from '@deepseek-ai/dsh-acp-testing'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { openLiveSession } from './helpers/live-session'
import type { LiveSession } from './helpers/live-session'

const tempDir = tempDirs('dsh-permission')

beforeAll(() => ensureBuilt(), 420_000)
let live: LiveSession | undefined
afterEach(async () => {
  expect(await live?.close()).toBe(0)
  live = undefined
})

type Call = { id: string; name: string; arguments: Record<string, unknown> }
const turns = (...calls: Call[]) => ({
  turns: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }],
})
const call = (id: string, name: string, args: Record<string, unknown>): Call => ({
  id,
  name,
  arguments: args,
})

async function open(
  calls: Call[],
  answer: PermissionAnswerer,
  args: string[] = [],
): Promise<{ session: LiveSession; workspace: string }> {
  const workspace = await tempDir('work')
  live = await openLiveSession({
    script: turns(...calls),
    workspace,
    home: await tempDir('home'),
    args,
    answer,
  })
  return { session: live, workspace }
}

function statuses(updates: readonly SessionUpdate[], toolCallId: string): unknown[] {
  return updates.flatMap((update) =>
    (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
    update.toolCallId === toolCallId
      ? [update.status]
      : [],
  )
}

describe('asking over stdio', () => {
  it('a write opens pending with its diff, asks with the options in order, and lands when allowed', async () => {
    const { session, workspace } = await open(
      [call('w1', 'write', { file_path: 'a.md', content: '# A\n' })],
      choose('allow_once'),
    )
    expect(await session.prompt('write')).toEqual({ stopReason: 'end_turn' })
    const opening = session.updates.find((u) => u.sessionUpdate === 'tool_call')
    expect(opening).toMatchObject({ toolCallId: 'w1', status: 'pending', title: 'Write a.md' })
    expect(opening && 'content' in opening && opening.content).toContainEqual({
      type: 'diff',
      path: join(workspace, 'a.md'),
      oldText: null,
      newText: '# A\n',
    })
    expect(session.permissionRequests.map((r) => r.options.map((o) => o.kind))).toEqual([
      ['allow_once', 'allow_always', 'reject_once'],
    ])
    expect(statuses(session.updates, 'w1')).toEqual(['pending', 'in_progress', 'completed'])
    expect(await readFile(join(workspace, 'a.md'), 'utf8')).toBe('# A\n')
  })

  it('an edit is previewed as its hunk, and always allow spares the next edit the question', async () => {
    const { session, workspace } = await open(
      [
        call('r1', 'read', { file_path: 'a.txt' }),
        call('e1', 'edit', { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' }),
        call('e2', 'edit', { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' }),
      ],
      choose('allow_always'),
    )
    await writeFile(join(workspace, 'a.txt'), 'one\ntwo\n')
    await session.prompt('edit twice')
    const pending = session.updates.find(
      (u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'e1',
    )
    expect(pending && 'content' in pending && pending.content).toContainEqual({
      type: 'diff',
      path: join(workspace, 'a.txt'),
      oldText: 'one\ntwo\n',
      newText: 'ONE\ntwo\n',
    })
    expect(session.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(['e1'])
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('ONE\nTWO\n')
  })

  it('a rejected overwrite leaves the file byte-identical and fails its card', async () => {
    const { session, workspace } = await open(
      [
        call('r1', 'read', { file_path: 'a.txt' }),
        call('w1', 'write', { file_path: 'a.txt', content: 'theirs' }),
      ],
      choose('reject_once'),
    )
    await writeFile(join(workspace, 'a.txt'), 'mine\r\n\u00e9')
    await session.prompt('overwrite')
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('mine\r\n\u00e9')
    expect(statuses(session.updates, 'w1')).toEqual(['pending', 'failed'])
    const failed = session.updates.findLast(
      (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'w1',
    )
    expect(failed).toMatchObject({ rawOutput: { error: { code: 'PERMISSION_REJECTED' } } })
  })

  it('session/cancel while the question is open settles the prompt cancelled and writes nothing', async () => {
    let asked = (): void => undefined
    const question = new Promise<void>((resolve) => (asked = resolve))
    const { session, workspace } = await open(
      [call('w1', 'write', { file_path: 'a.txt', content: 'never' })],
      () => {
        asked()
        return new Promise<RequestPermissionResponse>(() => undefined)
      },
    )
    const prompt = session.prompt('write')
    await question
    await session.agent.notify('session/cancel', { sessionId: session.sessionId })
    expect(await prompt).toEqual({ stopReason: 'cancelled' })
    expect(statuses(session.updates, 'w1')).toEqual(['pending', 'failed'])
    await expect(readFile(join(workspace, 'a.txt'), 'utf8')).rejects.toThrow()
  })
})

describe('a client that answers the question with an error', () => {
  it('that call fails PERMISSION_DENIED saying the editor could not ask, and the turn goes on to end_turn', async () => {
    const { session, workspace } = await open(
      [
        call('w1', 'write', { file_path: 'a.txt', content: 'never' }),
        call('r2', 'read', { file_path: 'seen.txt' }),
      ],
      () => {
        throw new RequestError(-32603, 'this editor cannot show the question')
      },
    )
    await writeFile(join(workspace, 'seen.txt'), 'seen\n')
    expect(await session.prompt('write, then read')).toEqual({ stopReason: 'end_turn' })
    expect(session.permissionRequests).toHaveLength(1)
    expect(statuses(session.updates, 'w1')).toEqual(['pending', 'failed'])
    const failed = session.updates.findLast(
      (update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'w1',
    )
    expect(failed).toMatchObject({
      rawOutput: { error: { name: 'PermissionError', code: 'PERMISSION_DENIED' } },
    })
    const text = JSON.stringify(failed && 'content' in failed ? failed.content : undefined)
    expect(text).toContain('Not run: the editor could not ask you about it')
    expect(text).toContain('error -32603: this editor cannot show the question')
    expect(statuses(session.updates, 'r2')).toEqual(['in_progress', 'completed'])
    await expect(readFile(join(workspace, 'a.txt'), 'utf8')).rejects.toThrow()
    const answered = session.bin.frames.find(
      (frame) => frame.from === 'client' && frame.method === 'session/request_permission',
    )
    expect(answered?.message).toMatchObject({ error: { code: -32603 } })
  })
})

describe('modes and roots over stdio', () => {
  it('--mode read-only refuses an edit without asking', async () => {
    const { session, workspace } = await open(
      [
        call('r1', 'read', { file_path: 'a.txt' }),
        call('e1', 'edit', { file_path: 'a.txt', old_string: 'a', new_string: 'b' }),
      ],
      choose('allow_once'),
      ['--mode', 'read-only'],
    )
    await writeFile(join(workspace, 'a.txt'), 'a\n')
    expect(session.newSession.modes?.currentModeId).toBe('read-only')
    await session.prompt('edit')
    expect(session.permissionRequests).toEqual([])
    expect(statuses(session.updates, 'e1')).toEqual(['pending', 'failed'])
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('a\n')
  })

  it('auto-edit writes inside unasked, and asks for a write outside and one through an escaping link', async () => {
    const outside = await tempDir('outside')
    const { session, workspace } = await open(
      [
        call('w1', 'write', { file_path: 'in.txt', content: 'in' }),
        call('w2', 'write', { file_path: join(outside, 'out.txt'), content: 'out' }),
        call('w3', 'write', { file_path: 'link/escape.txt', content: 'escape' }),
      ],
      choose('reject_once'),
      ['--mode', 'auto-edit'],
    )
    await symlink(outside, join(workspace, 'link'))
    await session.prompt('write three')
    expect(session.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(['w2', 'w3'])
    expect(session.permissionRequests[0]?.options.map((o) => o.kind)).toEqual([
      'allow_once',
      'reject_once',
    ])
    expect(await readFile(join(workspace, 'in.txt'), 'utf8')).toBe('in')
    await expect(readFile(join(outside, 'out.txt'), 'utf8')).rejects.toThrow()
    await expect(readFile(join(outside, 'escape.txt'), 'utf8')).rejects.toThrow()
  })

  it('set_mode switches the mode and the bin says so with current_mode_update', async () => {
    const { session } = await open([], choose('allow_once'))
    expect(session.newSession.modes?.availableModes.map((mode) => mode.id)).toEqual([
      'ask',
      'auto-edit',
      'read-only',
      'full-access',
      'plan',
    ])
    await session.agent.request('session/set_mode', {
      sessionId: session.sessionId,
      modeId: 'full-access',
    })
    await session.prompt('anything')
    expect(session.updates).toContainEqual({
      sessionUpdate: 'current_mode_update',
      currentModeId: 'full-access',
    })
  })
})
