// Commands over the BUILT bin's real stdio with the SDK's own client: terminal cards for a
// client advertising `_meta.terminal_output` and console tails for one that does not, output
// arriving while a sleep-separated command runs, the question showing the command, a reject
// that runs nothing, a file a command changed being stale for the next edit, a stored session
// replayed in a new process — and no command's process outliving the bin. Every frame valid.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as acp from '@agentclientprotocol/sdk'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { assertAgentFramesValid, choose } from '@deepseek-ai/dsh-acp-testing'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { openLiveSession } from './helpers/live-session'
import type { LiveSession, LiveSessionOptions } from './helpers/live-session'
import { QUIET_MODEL, startBin } from './helpers/spawn-bin'

const tempDir = tempDirs('dsh-shell')

beforeAll(() => ensureBuilt(), 420_000)
let live: LiveSession | undefined
afterEach(async () => {
  if (live !== undefined) expect(await live.close()).toBe(0)
  live = undefined
})

type Call = { id: string; name: string; arguments: Record<string, unknown> }
const bash = (id: string, command: string, extra: Record<string, unknown> = {}): Call => ({
  id,
  name: 'bash',
  arguments: { command, ...extra },
})
const turns = (...calls: Call[]) => ({
  turns: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }],
})

async function open(
  calls: Call[],
  options: Partial<LiveSessionOptions> = {},
): Promise<{ session: LiveSession; workspace: string }> {
  const workspace = await tempDir('work')
  live = await openLiveSession({
    script: turns(...calls),
    workspace,
    home: await tempDir('home'),
    answer: choose('allow_once'),
    ...options,
  })
  return { session: live, workspace }
}

type Meta = Record<string, Record<string, unknown> | undefined>
const metaOf = (update: SessionUpdate): Meta => ((update as { _meta?: Meta })._meta ?? {}) as Meta
function textsOf(update: SessionUpdate | undefined): string[] {
  if (update?.sessionUpdate !== 'tool_call' && update?.sessionUpdate !== 'tool_call_update')
    return []
  return (update.content ?? []).flatMap((block) =>
    block.type === 'content' && block.content.type === 'text' ? [block.content.text] : [],
  )
}
const calls = (updates: SessionUpdate[]) => updates.filter((u) => u.sessionUpdate === 'tool_call')
const lastUpdate = (updates: SessionUpdate[]) =>
  updates.filter((u) => u.sessionUpdate === 'tool_call_update').at(-1)

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const slow = 'echo one; sleep 1; echo two'

describe('command cards over stdio', () => {
  it('stream into a terminal for a client that shows terminals', async () => {
    const { session, workspace } = await open([bash('b1', slow)], {
      args: ['--mode', 'full-access'],
      clientCapabilities: { _meta: { terminal_output: true } },
    })
    const prompt = session.prompt('run it')
    await until(() => session.updates.some((u) => metaOf(u).terminal_output !== undefined))
    // The first output is out while the command still sleeps: no exit yet.
    expect(session.updates.some((u) => metaOf(u).terminal_exit !== undefined)).toBe(false)
    await prompt
    const [call] = calls(session.updates)
    expect(call).toMatchObject({
      title: slow,
      kind: 'execute',
      content: [{ type: 'terminal', terminalId: 'b1' }],
    })
    expect(metaOf(call!).terminal_info).toEqual({ terminal_id: 'b1', cwd: workspace })
    const data = session.updates.flatMap((u) =>
      metaOf(u).terminal_output ? [metaOf(u).terminal_output!.data] : [],
    )
    expect(data.join('')).toBe('one\ntwo\n')
    expect(metaOf(lastUpdate(session.updates)!).terminal_exit).toEqual({
      terminal_id: 'b1',
      exit_code: 0,
      signal: null,
    })
  })

  it('reach the terminal in whole lines, with colours but no clipboard, title or screen clear', async () => {
    const command =
      "printf 'ls: '; printf 'rest\\n'; printf '\\033]52;c;aGk=\\007\\033]0;owned\\007\\033[2J\\033[32mok\\033[0m\\n'"
    const { session } = await open([bash('b1', command)], {
      args: ['--mode', 'full-access'],
      clientCapabilities: { _meta: { terminal_output: true } },
    })
    await session.prompt('run it')
    const data = session.updates.flatMap((u) =>
      metaOf(u).terminal_output ? [String(metaOf(u).terminal_output!.data)] : [],
    )
    // No piece ends inside a line (`ls: ` went with its rest).
    expect(data.every((piece) => piece.endsWith('\n'))).toBe(true)
    expect(data.join('')).toBe('ls: rest\n\x1b[32mok\x1b[0m\n')
  })

  it('show a console tail to a client without terminals', async () => {
    const { session } = await open([bash('b1', slow, { description: 'Count to two' })], {
      args: ['--mode', 'full-access'],
    })
    const prompt = session.prompt('run it')
    await until(() => session.updates.some((u) => textsOf(u).includes('```console\none\n```')))
    expect(session.updates.some((u) => textsOf(u).join('').includes('one\ntwo'))).toBe(false)
    await prompt
    expect(textsOf(lastUpdate(session.updates))).toEqual([
      'Count to two',
      '```console\none\ntwo\n```',
    ])
  })
})

describe('asking about a command over stdio', () => {
  it('shows the command and runs nothing when rejected', async () => {
    const { session, workspace } = await open([bash('b1', 'touch made.txt')], {
      answer: choose('reject_once'),
    })
    await session.prompt('run it')
    const [request] = session.permissionRequests
    expect(request!.toolCall.title).toBe('touch made.txt')
    expect(textsOf(calls(session.updates)[0])).toEqual([
      '```sh\ntouch made.txt\n```',
      `in ${workspace}`,
    ])
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false)
    expect(lastUpdate(session.updates)).toMatchObject({ status: 'failed' })
  })
})

describe('the file tools after a command over stdio', () => {
  it('refuse to edit a file sed -i changed after it was read', async () => {
    const workspace = await tempDir('stale')
    await writeFile(join(workspace, 'a.txt'), 'one\ntwo\n')
    live = await openLiveSession({
      script: turns(
        { id: 'r1', name: 'read', arguments: { file_path: 'a.txt' } },
        bash('b1', "sed -i 's/one/uno/' a.txt"),
        {
          id: 'e1',
          name: 'edit',
          arguments: { file_path: 'a.txt', old_string: 'two', new_string: 'dos' },
        },
      ),
      workspace,
      home: await tempDir('home'),
      args: ['--mode', 'full-access'],
      answer: choose('allow_once'),
    })
    await live.prompt('change it')
    const last = lastUpdate(live.updates)
    expect(last).toMatchObject({
      toolCallId: 'e1',
      status: 'failed',
      rawOutput: { error: { code: 'FS_STALE_VERSION' } },
    })
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('uno\ntwo\n')
  })
})

describe('a stored session with commands over stdio', () => {
  it('replays the command card and its output in a new process', async () => {
    const sessions = await tempDir('sessions')
    const { session, workspace } = await open([bash('b1', 'echo kept; exit 1')], {
      args: ['--mode', 'full-access', '--sessions', sessions],
      clientCapabilities: { _meta: { terminal_output: true } },
    })
    await session.prompt('run it')
    const first = calls(session.updates)[0]
    expect(await session.close()).toBe(0)
    live = undefined

    const bin = startBin([...QUIET_MODEL, '--sessions', sessions], await tempDir('home2'))
    const updates: SessionUpdate[] = []
    const connection = acp
      .client()
      .onNotification(
        acp.methods.client.session.update,
        ({ params }) => void updates.push(params.update),
      )
      .onRequest(acp.methods.client.session.requestPermission, () => ({
        outcome: { outcome: 'cancelled' },
      }))
      .connect(bin.stream)
    await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { _meta: { terminal_output: true } },
    })
    await connection.agent.request(acp.methods.agent.session.load, {
      sessionId: session.sessionId,
      cwd: workspace,
      mcpServers: [],
    })
    expect(calls(updates)).toEqual([first])
    const output = updates.flatMap((u) =>
      metaOf(u).terminal_output ? [metaOf(u).terminal_output] : [],
    )
    expect(output).toEqual([{ terminal_id: 'b1', data: 'kept\n' }])
    expect(metaOf(lastUpdate(updates)!).terminal_exit).toEqual({
      terminal_id: 'b1',
      exit_code: 1,
      signal: null,
    })
    connection.close()
    bin.child.stdin.end()
    expect(await bin.exited).toBe(0)
    assertAgentFramesValid(bin.frames)
  })
})

/** The live (non-zombie) members of a process group, from /proc. */
function groupMembers(pgid: number): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return []
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return fields[0] !== 'Z' && Number(fields[2]) === pgid ? [Number(entry)] : []
    } catch {
      return [] // the process ended while we looked
    }
  })
}

describe('no command outlives the bin', () => {
  for (const how of ['stdin end', 'SIGTERM'] as const) {
    it(`ends a background job and its children on ${how}`, async () => {
      const { session, workspace } = await open(
        [bash('b1', 'echo $$ > pgid.txt; (sleep 241 &); sleep 242', { run_in_background: true })],
        { args: ['--mode', 'full-access'] },
      )
      await session.prompt('start it')
      await until(
        () =>
          existsSync(join(workspace, 'pgid.txt')) &&
          readFileSync(join(workspace, 'pgid.txt'), 'utf8').endsWith('\n'),
      )
      const pgid = Number(readFileSync(join(workspace, 'pgid.txt'), 'utf8'))
      await until(() => groupMembers(pgid).length >= 2)
      if (how === 'SIGTERM') session.bin.child.kill('SIGTERM')
      expect(await session.close()).toBe(0)
      live = undefined
      await until(() => groupMembers(pgid).length === 0, 5000)
    })
  }
})
