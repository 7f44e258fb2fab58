// What a person notices the first day, in memory through the SDK's client: the session's title
// and last activity, the plan the agent keeps (three `plan` updates, replayed on load), a file
// the person attached (it reaches the model, and is not a read), and deleting stored sessions.
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { FileSessionStore } from '@deepseek-ai/dsh-session-store'
import { afterEach, describe, expect, it } from 'vitest'
import { updatesOfKind, useAcpHarness } from './helpers/harness'
import { assertAgentFramesValid } from '../src/schema'

const makeHarness = useAcpHarness()

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function storeDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-features-')))
  dirs.push(dir)
  return dir
}

const todo = (id: string, statuses: string[]) => ({
  id,
  name: 'todo',
  arguments: {
    todos: ['Read the code', 'Fix the bug', 'Run the tests'].map((content, n) => ({
      content,
      status: statuses[n],
    })),
  },
})

const PLAN_SCRIPT = {
  turns: [
    { toolCalls: [todo('p1', ['in_progress', 'pending', 'pending'])] },
    { toolCalls: [todo('p2', ['completed', 'in_progress', 'pending'])] },
    { toolCalls: [todo('p3', ['completed', 'completed', 'completed'])] },
    { text: 'All done.' },
  ],
}

describe('the session title', () => {
  it('goes out once with the first message, and every turn end sends the last activity', async () => {
    const harness = await makeHarness({ script: { turns: [{ text: 'a' }, { text: 'b' }] } })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'Fix the parser\nit breaks on tabs')
    await harness.prompt(sessionId, 'Now the lexer')
    const info = updatesOfKind(harness.updatesOf(sessionId), 'session_info_update')
    expect(info).toEqual([
      { sessionUpdate: 'session_info_update', title: 'Fix the parser' },
      { sessionUpdate: 'session_info_update', updatedAt: expect.any(String) },
      { sessionUpdate: 'session_info_update', updatedAt: expect.any(String) },
    ])
    const times = info.flatMap((update) => (update.updatedAt ? [update.updatedAt] : []))
    expect(times.every((time) => !Number.isNaN(Date.parse(time)))).toBe(true)
    expect(Date.parse(times[1]!)).toBeGreaterThanOrEqual(Date.parse(times[0]!))
  })
})

describe('the plan', () => {
  it('each todo call sends the whole list as a plan and no card, and a load replays the plans alone', async () => {
    const store = new FileSessionStore({ dir: await storeDir(), warn: () => undefined })
    const harness = await makeHarness({ withFs: true, withPlan: true, store, script: PLAN_SCRIPT })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'Fix the bug in three steps')
    const live = harness.updatesOf(sessionId)
    expect(harness.permissionRequests).toEqual([])
    const plans = updatesOfKind(live, 'plan')
    expect(plans.map((plan) => plan.entries.map((entry) => entry.status))).toEqual([
      ['in_progress', 'pending', 'pending'],
      ['completed', 'in_progress', 'pending'],
      ['completed', 'completed', 'completed'],
    ])
    expect(plans[0]?.entries[0]).toEqual({
      content: 'Read the code',
      status: 'in_progress',
      priority: 'medium',
    })
    // The plan is what the person follows: a todo call that sets it sends no card.
    expect(updatesOfKind(live, 'tool_call')).toEqual([])
    expect(updatesOfKind(live, 'tool_call_update')).toEqual([])
    assertAgentFramesValid(harness.agentFrames())

    await harness.agent.request('session/close', { sessionId })
    const before = harness.updates.length
    await harness.agent.request('session/load', {
      sessionId,
      cwd: harness.workspace,
      mcpServers: [],
    })
    const replayed = harness.updates.slice(before).map((n) => n.update)
    expect(updatesOfKind(replayed, 'plan')).toEqual(plans)
    expect(updatesOfKind(replayed, 'tool_call')).toEqual([])
    expect(updatesOfKind(replayed, 'session_info_update')).toEqual([
      { sessionUpdate: 'session_info_update', title: 'Fix the bug in three steps' },
    ])
  })
})

describe('an attached file', () => {
  it('reaches the model with its uri and relative path, and does not count as read', async () => {
    const edit = { file_path: 'src/a.txt', old_string: 'one', new_string: 'ONE' }
    const script = {
      turns: [{ toolCalls: [{ id: 'e1', name: 'edit', arguments: edit }] }, { text: 'ok' }],
    }
    const harness = await makeHarness({ withFs: true, mode: 'full-access', script })
    await mkdir(join(harness.workspace, 'src'))
    const file = join(harness.workspace, 'src/a.txt')
    await writeFile(file, 'one\ntwo\n')
    const sessionId = await harness.newSession()
    const uri = pathToFileURL(file).href
    await harness.prompt(sessionId, [
      { type: 'text', text: 'Capitalise the first line of' },
      { type: 'resource', resource: { uri, text: 'one\ntwo (unsaved)\n', mimeType: 'text/plain' } },
    ])
    const events = harness.ctx.agents.get(sessionId)?.session.events ?? []
    const message = events.find((event) => event.type === 'user/message')
    expect(message).toMatchObject({
      text: `Capitalise the first line of @${file}\n\n<attachment uri="${uri}" path="src/a.txt" type="text/plain">\none\ntwo (unsaved)\n</attachment>`,
    })
    const result = events.findLast((event) => event.type === 'tool/result')
    expect(result).toMatchObject({ callId: 'e1', error: { code: 'FS_NOT_OBSERVED' } })
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\n')
    expect(harness.initialized.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true)
  })
})

describe('deleting a session', () => {
  it('removes a stored session, closing it first when live here; then list and load do not find it', async () => {
    const dir = await storeDir()
    const store = new FileSessionStore({ dir, warn: () => undefined })
    const harness = await makeHarness({ store, script: { turns: [{ text: 'a' }, { text: 'b' }] } })
    expect(harness.initialized.agentCapabilities?.sessionCapabilities?.delete).toEqual({})
    const kept = await harness.newSession()
    await harness.prompt(kept, 'keep me')
    const doomed = await harness.newSession()
    await harness.prompt(doomed, 'delete me')
    expect(await harness.agent.request('session/delete', { sessionId: doomed })).toEqual({})
    expect(harness.server.sessionIds()).toEqual([kept])
    expect((await readdir(dir)).filter((name) => name.startsWith(doomed))).toEqual([])
    const list = await harness.agent.request('session/list', {})
    expect(list.sessions.map((session) => session.sessionId)).toEqual([kept])
    const load = await harness.agent
      .request('session/load', { sessionId: doomed, cwd: harness.workspace, mcpServers: [] })
      .catch((error: unknown) => error)
    expect(load).toMatchObject({ code: -32002 })
    // The SDK's client takes a second delete as done; the wire says -32002.
    await harness.agent.request('session/delete', { sessionId: doomed })
    const reply = harness.agentFrames().findLast((frame) => frame.method === 'session/delete')
    expect(reply?.message).toMatchObject({ error: { code: -32002 } })
    expect(JSON.stringify(reply?.message)).toContain(doomed)
  })
})

describe('a todo call that fails', () => {
  it('gets its card, failed, with the error, and sets no plan', async () => {
    const running = (content: string) => ({ content, status: 'in_progress' })
    const script = {
      turns: [
        {
          toolCalls: [
            { id: 't1', name: 'todo', arguments: { todos: [running('a'), running('b')] } },
          ],
        },
        { text: 'ok' },
      ],
    }
    const harness = await makeHarness({ withPlan: true, script })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'plan')
    const live = harness.updatesOf(sessionId)
    expect(updatesOfKind(live, 'plan')).toEqual([])
    expect(updatesOfKind(live, 'tool_call')).toMatchObject([
      { toolCallId: 't1', title: 'Update plan (0 of 2 done)', status: 'pending' },
    ])
    expect(updatesOfKind(live, 'tool_call_update')).toMatchObject([
      { toolCallId: 't1', status: 'failed' },
    ])
    assertAgentFramesValid(harness.agentFrames())
  })
})
