// Commands over the real SDK client: the bash card (title = the command, kind execute, the
// description first), its output live while the command runs — as Zed's terminal `_meta` for a
// client that advertises `terminal_output`, else as a console tail — the question showing the
// command, a reject that runs nothing, a file changed by a command being stale for the next
// edit, and a stored session replaying the same cards. Every frame is checked against the schema.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { FileSessionStore } from '@deepseek-ai/dsh-session-store'
import { afterEach, describe, expect, it } from 'vitest'
import { choose } from '../src/client'
import { updatesOfKind, useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

const slow = 'echo one; sleep 0.6; echo two'
function bashScript(command: string, extra: Record<string, unknown> = {}) {
  return {
    turns: [
      { toolCalls: [{ id: 'b1', name: 'bash', arguments: { command, ...extra } }] },
      { text: 'Ran it.' },
    ],
  }
}

type Meta = Record<string, Record<string, unknown> | undefined>
const metaOf = (update: SessionUpdate): Meta => ((update as { _meta?: Meta })._meta ?? {}) as Meta

function textsOf(update: SessionUpdate): string[] {
  if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return []
  return (update.content ?? []).flatMap((block) =>
    block.type === 'content' && block.content.type === 'text' ? [block.content.text] : [],
  )
}

describe('a command card for a client without terminals', () => {
  it('is titled with the command, leads with the description and shows output as it comes', async () => {
    const script = bashScript(slow, { description: 'Say one, then two' })
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      mode: 'full-access',
      script,
    })
    const sessionId = await harness.newSession()
    const prompt = harness.prompt(sessionId, 'run it')
    // The first line of output is on the card while the command still sleeps.
    const live = await harness.waitForUpdate(
      (n) =>
        n.update.sessionUpdate === 'tool_call_update' && textsOf(n.update).join('').includes('one'),
    )
    expect(textsOf(live.update)).toEqual(['Say one, then two', '```console\none\n```'])
    expect(harness.updatesOf(sessionId).some((u) => textsOf(u).join('').includes('one\ntwo'))).toBe(
      false,
    )
    await prompt
    const [call] = updatesOfKind(harness.updatesOf(sessionId), 'tool_call')
    expect(call).toMatchObject({ title: slow, kind: 'execute', status: 'in_progress' })
    expect(textsOf(call!)).toEqual(['Say one, then two'])
    const last = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update').at(-1)!
    expect(last.status).toBe('completed')
    expect(textsOf(last)).toEqual(['Say one, then two', '```console\none\ntwo\n```'])
  })

  it('fails the card on a non-zero exit and shows a multi-line command as its first line', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      mode: 'full-access',
      script: bashScript('echo a\necho b\nexit 3'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    const [call] = updatesOfKind(harness.updatesOf(sessionId), 'tool_call')
    expect(call!.title).toBe('echo a (+2 lines)')
    const last = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update').at(-1)!
    expect(last.status).toBe('failed')
    expect(textsOf(last).at(-1)).toBe('Failed with exit code 3')
  })
})

describe('a command card for a client with terminals', () => {
  it('opens a terminal, streams into it while the command runs, and ends with its exit', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      terminalOutput: true,
      mode: 'full-access',
      script: bashScript(slow),
    })
    const sessionId = await harness.newSession()
    const prompt = harness.prompt(sessionId, 'run it')
    const first = await harness.waitForUpdate((n) => metaOf(n.update).terminal_output !== undefined)
    expect(metaOf(first.update).terminal_output).toEqual({ terminal_id: 'b1', data: 'one\n' })
    expect(harness.updatesOf(sessionId).some((u) => metaOf(u).terminal_exit)).toBe(false)
    await prompt
    const updates = harness.updatesOf(sessionId)
    const [call] = updatesOfKind(updates, 'tool_call')
    expect(call!.content).toEqual([{ type: 'terminal', terminalId: 'b1' }])
    expect(metaOf(call!).terminal_info).toEqual({ terminal_id: 'b1', cwd: harness.workspace })
    const data = updates.flatMap((u) => {
      const output = metaOf(u).terminal_output
      return output ? [output.data] : []
    })
    expect(data.join('')).toBe('one\ntwo\n')
    const last = updatesOfKind(updates, 'tool_call_update').at(-1)!
    expect(last.status).toBe('completed')
    expect(metaOf(last).terminal_exit).toEqual({ terminal_id: 'b1', exit_code: 0, signal: null })
    expect(last.content).toEqual([{ type: 'terminal', terminalId: 'b1' }])
  })
})

describe('asking about a command', () => {
  it('shows the command in a sh block and where it runs', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      script: bashScript('touch made.txt'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    const [request] = harness.permissionRequests
    expect(request!.toolCall).toMatchObject({ title: 'touch made.txt', kind: 'execute' })
    expect(request!.options.map((option) => option.name)).toEqual([
      'Allow',
      'Always allow touch … in this session',
      'Reject',
    ])
    const [pending] = updatesOfKind(harness.updatesOf(sessionId), 'tool_call')
    expect(pending!.status).toBe('pending')
    expect(textsOf(pending!)).toEqual(['```sh\ntouch made.txt\n```', `in ${harness.workspace}`])
    expect(existsSync(join(harness.workspace, 'made.txt'))).toBe(true)
  })

  it('reads its description first and shows the command once, then takes the command back as it runs', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      terminalOutput: true,
      script: bashScript('touch made.txt', { description: 'Create the marker file' }),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    const [request] = harness.permissionRequests
    expect(request!.toolCall.title).toBe('Create the marker file')
    const texts = textsOf({ ...request!.toolCall, sessionUpdate: 'tool_call_update' })
    expect(texts).toEqual(['```sh\ntouch made.txt\n```', `in ${harness.workspace}`])
    const started = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update').find(
      (update) => update.status === 'in_progress',
    )
    expect(started).toMatchObject({ title: 'touch made.txt' })
    expect(textsOf(started!)).toEqual(['Create the marker file'])
  })

  it('an asked command that printed nothing ends with no exit-code block on its card', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      script: bashScript('touch made.txt'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    const last = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update').at(-1)!
    expect(last.status).toBe('completed')
    expect(JSON.stringify(last)).not.toContain('exit code')
  })

  it('runs nothing when the person rejects', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      answer: choose('reject_once'),
      script: bashScript('touch made.txt'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    expect(harness.permissionRequests).toHaveLength(1)
    expect(existsSync(join(harness.workspace, 'made.txt'))).toBe(false)
    const last = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update').at(-1)!
    expect(last.status).toBe('failed')
  })

  it('runs a read-only command unasked', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      script: bashScript('ls -la | head -3'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    expect(harness.permissionRequests).toHaveLength(0)
    const last = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update').at(-1)!
    expect(last.status).toBe('completed')
  })
})

describe('the file tools after a command', () => {
  it('refuses an edit of a file a command changed since it was read', async () => {
    const script = {
      turns: [
        { toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'a.txt' } }] },
        {
          toolCalls: [
            { id: 'b1', name: 'bash', arguments: { command: "sed -i 's/one/uno/' a.txt" } },
          ],
        },
        {
          toolCalls: [
            {
              id: 'e1',
              name: 'edit',
              arguments: { file_path: 'a.txt', old_string: 'two', new_string: 'dos' },
            },
          ],
        },
        { text: 'Done.' },
      ],
    }
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      mode: 'full-access',
      script,
    })
    await writeFile(join(harness.workspace, 'a.txt'), 'one\ntwo\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'change it')
    const events = harness.ctx.agents.get(sessionId)?.session.events ?? []
    const edit = events.find((event) => event.type === 'tool/result' && event.callId === 'e1')
    expect(edit).toMatchObject({ isError: true, error: { code: 'FS_STALE_VERSION' } })
    expect(await readFile(join(harness.workspace, 'a.txt'), 'utf8')).toBe('uno\ntwo\n')
  })
})

describe('a stored session with commands', () => {
  for (const terminalOutput of [false, true]) {
    it(`replays the command cards with their output on session/load (terminals: ${terminalOutput})`, async () => {
      const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-sessions-')))
      dirs.push(dir)
      const store = new FileSessionStore({ dir, warn: () => undefined })
      const harness = await makeHarness({
        withFs: true,
        withShell: true,
        terminalOutput,
        mode: 'full-access',
        store,
        script: bashScript('echo stored; exit 2', { description: 'Print and fail' }),
      })
      const sessionId = await harness.newSession()
      await harness.prompt(sessionId, 'run it')
      await harness.agent.request('session/close', { sessionId })
      const before = harness.updates.length
      await harness.agent.request('session/load', {
        sessionId,
        cwd: harness.workspace,
        mcpServers: [],
      })
      const replayed = harness.updates.slice(before).map((n) => n.update)
      const [call] = updatesOfKind(replayed, 'tool_call')
      expect(call).toMatchObject({ title: 'echo stored; exit 2', kind: 'execute' })
      // Without terminals the card is replayed once, as it ended; a terminal takes its output
      // as it comes, so its card opens, gets the output, then ends.
      const last = terminalOutput ? updatesOfKind(replayed, 'tool_call_update').at(-1)! : call!
      expect(last.status).toBe('failed')
      if (terminalOutput) {
        const output = replayed.map((u) => metaOf(u).terminal_output).filter(Boolean)
        expect(output).toEqual([{ terminal_id: 'b1', data: 'stored\n' }])
        expect(metaOf(last).terminal_exit).toEqual({
          terminal_id: 'b1',
          exit_code: 2,
          signal: null,
        })
      } else {
        expect(textsOf(last)).toEqual([
          'Print and fail',
          '```console\nstored\n```',
          'Failed with exit code 2',
        ])
      }
    })
  }
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

async function until(check: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25))
  return check()
}

describe('background jobs and their session', () => {
  for (const how of ['session/close', 'the connection ending'] as const) {
    it(`ends a job and its children on ${how}`, async () => {
      const command = 'echo $$ > pgid.txt; (sleep 251 &); sleep 252'
      const harness = await makeHarness({
        withFs: true,
        withShell: true,
        mode: 'full-access',
        script: bashScript(command, { run_in_background: true }),
      })
      const sessionId = await harness.newSession()
      await harness.prompt(sessionId, 'start it')
      const file = join(harness.workspace, 'pgid.txt')
      expect(await until(() => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n'))).toBe(
        true,
      )
      const pgid = Number(readFileSync(file, 'utf8'))
      expect(await until(() => groupMembers(pgid).length >= 2), 'the job runs').toBe(true)
      if (how === 'session/close') await harness.agent.request('session/close', { sessionId })
      else await harness.disconnect()
      expect(await until(() => groupMembers(pgid).length === 0), 'no survivor').toBe(true)
    })
  }
})
