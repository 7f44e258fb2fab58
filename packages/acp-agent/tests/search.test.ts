// The search tools over the BUILT bin's real stdio with the SDK's own client: the cards (titles,
// kind `search`, the files found as locations with lines, never a directory) and the permission
// layer judging a search by its root in ask mode (inside: unasked; outside, or through a link
// that leads outside: asked). Every frame the bin wrote is checked against the ACP schema.
import { mkdir, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { choose } from '@deepseek-ai/dsh-acp-testing'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { openLiveSession } from './helpers/live-session'
import type { LiveSession } from './helpers/live-session'

const tempDir = tempDirs('dsh-search')

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

type CardUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>
function cardOf(updates: readonly SessionUpdate[], toolCallId: string): CardUpdate[] {
  return updates.filter(
    (update): update is CardUpdate =>
      (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
      update.toolCallId === toolCallId,
  )
}

async function open(calls: Call[]): Promise<{ session: LiveSession; workspace: string }> {
  const workspace = await tempDir('work')
  await mkdir(join(workspace, 'src/deep'), { recursive: true })
  await writeFile(join(workspace, 'src/app.ts'), 'import x\nconst retry = 3\n')
  await writeFile(join(workspace, 'src/deep/util.ts'), 'a\nb\nfunction retry() {}\n')
  await writeFile(join(workspace, '.ignore'), 'ignored.ts\n')
  await writeFile(join(workspace, 'ignored.ts'), 'retry\n')
  live = await openLiveSession({
    script: turns(...calls),
    workspace,
    home: await tempDir('home'),
    answer: choose('allow_once'),
  })
  return { session: live, workspace }
}

describe('search over stdio', () => {
  it('grep and glob cards carry titles, kind search and the files found with lines, unasked', async () => {
    const { session, workspace } = await open([
      { id: 'g1', name: 'grep', arguments: { pattern: 'retry', output_mode: 'count' } },
      { id: 'f1', name: 'glob', arguments: { pattern: '**/*.ts', path: 'src' } },
    ])
    expect(await session.prompt('find it')).toEqual({ stopReason: 'end_turn' })
    expect(session.permissionRequests).toEqual([])
    const grep = cardOf(session.updates, 'g1')
    expect(grep[0]).toMatchObject({ status: 'in_progress', title: 'Search retry', kind: 'search' })
    expect(grep[1]).toMatchObject({
      status: 'completed',
      locations: [
        { path: join(workspace, 'src/app.ts'), line: 2 },
        { path: join(workspace, 'src/deep/util.ts'), line: 3 },
      ],
      content: [
        {
          type: 'content',
          content: { type: 'text', text: 'src/app.ts:1\nsrc/deep/util.ts:1' },
        },
      ],
    })
    const glob = cardOf(session.updates, 'f1')
    expect(glob[0]).toMatchObject({ title: 'Find **/*.ts in src', kind: 'search' })
    const paths = (glob[1]?.locations ?? []).map((location) => location.path).sort()
    expect(paths).toEqual([join(workspace, 'src/app.ts'), join(workspace, 'src/deep/util.ts')])
    for (const path of paths) expect((await stat(path)).isFile()).toBe(true)
  })

  it('a search outside the workspace, or through a link leading out, is asked in ask mode', async () => {
    const outside = await tempDir('outside')
    await writeFile(join(outside, 'far.ts'), 'retry\n')
    const calls: Call[] = [
      { id: 'o1', name: 'glob', arguments: { pattern: '*.ts', path: outside } },
      { id: 'o2', name: 'grep', arguments: { pattern: 'retry', path: 'out' } },
      { id: 'i1', name: 'grep', arguments: { pattern: 'retry', path: 'src' } },
    ]
    const { session, workspace } = await open(calls)
    await symlink(outside, join(workspace, 'out'))
    await session.prompt('look around')
    expect(session.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual([
      'o1',
      'o2',
    ])
    expect(session.permissionRequests[0]?.toolCall).toMatchObject({
      title: `Find *.ts in ${outside}`,
      kind: 'search',
    })
    expect(cardOf(session.updates, 'o1').at(-1)).toMatchObject({
      status: 'completed',
      locations: [{ path: join(outside, 'far.ts') }],
    })
    expect(cardOf(session.updates, 'i1').map((update) => update.status)).toEqual([
      'in_progress',
      'completed',
    ])
  })
})
