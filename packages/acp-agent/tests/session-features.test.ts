// What a person notices the first day, over the BUILT bin's real stdio with the SDK's client:
// the session's title; three `plan` updates and their replay by a new process; an attached file
// in the model's request (a recording OpenAI-compatible server on 127.0.0.1) whose unread edit
// is refused; delete, then list, then load; and a delete refused for a session another live
// process holds. Every frame either bin wrote is checked against the ACP schema.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as acp from '@agentclientprotocol/sdk'
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { recordingServer, textAnswer, toolCallAnswer } from './helpers/recording-server'
import { envWithoutKey, startBin } from './helpers/spawn-bin'
import type { BinSession } from './helpers/spawn-bin'

const tempDir = tempDirs('dsh-features')

beforeAll(() => ensureBuilt(), 420_000)
/** A bin on `store` with a client: initialized, ready for sessions. */
async function connect(args: string[], env?: NodeJS.ProcessEnv) {
  const bin = startBin(args, await tempDir('home'), env)
  const client = new HarnessClient(bin.stream)
  const agent = client.connection.agent
  const init = await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  return { bin, client, agent, init }
}

/** Ends the bin's stdin, expects a clean exit, and checks every frame it wrote. */
async function finish(bin: BinSession, client: HarnessClient): Promise<void> {
  client.connection.close()
  if (!bin.child.stdin.writableEnded) bin.child.stdin.end()
  expect(await bin.exited).toBe(0)
  assertAgentFramesValid(bin.frames)
}

async function scriptFile(script: object): Promise<string> {
  const file = join(await tempDir('script'), 'script.json')
  await writeFile(file, JSON.stringify(script))
  return file
}

const updatesOf = (client: HarnessClient, from = 0) =>
  client.updates.slice(from).map((n) => n.update)
const ofKind = <K extends acp.SessionUpdate['sessionUpdate']>(
  updates: readonly acp.SessionUpdate[],
  kind: K,
) =>
  updates.filter(
    (u): u is Extract<acp.SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind,
  )

const todo = (id: string, statuses: string[]) => ({
  id,
  name: 'todo',
  arguments: {
    todos: ['Read the code', 'Fix the bug', 'Run the tests'].map((content, n) => ({
      content,
      status: statuses[n],
      ...(n === 1 && { priority: 'high' }),
    })),
  },
})

describe('the title', () => {
  it('goes out when the first message arrives, and the last activity when the turn ends', async () => {
    const workspace = await tempDir('work')
    const script = await scriptFile({ turns: [{ text: 'Hello.' }] })
    const { bin, client, agent } = await connect([
      '--script',
      script,
      '--sessions',
      await tempDir('store'),
    ])
    const { sessionId } = await agent.request('session/new', { cwd: workspace, mcpServers: [] })
    await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: `Explain the build${' and more'.repeat(12)}\nsecond line` }],
    })
    const info = ofKind(updatesOf(client), 'session_info_update')
    expect(info).toHaveLength(2)
    expect(info[0]?.title).toHaveLength(80)
    expect(info[0]?.title).toMatch(/^Explain the build and more.*…$/)
    expect(Date.parse(info[1]?.updatedAt ?? '')).toBeGreaterThan(Date.now() - 60_000)
    const list = await agent.request('session/list', { cwd: workspace })
    expect(list.sessions[0]?.title).toBe(info[0]?.title)
    await finish(bin, client)
  }, 60_000)
})

describe('the plan', () => {
  it('three todo calls send three plans, and a new process replays them on load', async () => {
    const workspace = await tempDir('work')
    const store = await tempDir('store')
    const script = await scriptFile({
      turns: [
        { toolCalls: [todo('p1', ['in_progress', 'pending', 'pending'])] },
        { toolCalls: [todo('p2', ['completed', 'in_progress', 'pending'])] },
        { toolCalls: [todo('p3', ['completed', 'completed', 'in_progress'])] },
        { text: 'Running the tests next.' },
      ],
    })
    const first = await connect(['--script', script, '--sessions', store])
    const { sessionId } = await first.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [],
    })
    await first.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Fix the bug' }],
    })
    const live = updatesOf(first.client)
    const plans = ofKind(live, 'plan')
    expect(plans.map((plan) => plan.entries.map((e) => `${e.status}/${e.priority}`))).toEqual([
      ['in_progress/medium', 'pending/high', 'pending/medium'],
      ['completed/medium', 'in_progress/high', 'pending/medium'],
      ['completed/medium', 'completed/high', 'in_progress/medium'],
    ])
    // The plan is what the person follows: the todo calls send no card.
    expect(ofKind(live, 'tool_call')).toEqual([])
    expect(first.client.permissionRequests).toEqual([])
    await finish(first.bin, first.client)

    const second = await connect(['--script', script, '--sessions', store])
    await second.agent.request('session/load', { sessionId, cwd: workspace, mcpServers: [] })
    const replayed = updatesOf(second.client)
    expect(ofKind(replayed, 'plan')).toEqual(plans)
    expect(ofKind(replayed, 'session_info_update')).toEqual([
      { sessionUpdate: 'session_info_update', title: 'Fix the bug' },
    ])
    await finish(second.bin, second.client)
  }, 60_000)
})

describe('an attached file', () => {
  it('is in the model request with its uri and relative path, and an edit without a read is refused', async () => {
    const workspace = await tempDir('work')
    await mkdir(join(workspace, 'src'))
    const file = join(workspace, 'src/a.txt')
    await writeFile(file, 'one\ntwo\n')
    const edit = { file_path: 'src/a.txt', old_string: 'one', new_string: 'ONE' }
    const model = await recordingServer([
      toolCallAnswer('e1', 'edit', edit),
      textAnswer('I must read it first.'),
    ])
    try {
      const env = { ...envWithoutKey(), DEEPSEEK_API_KEY: 'sk-local-test' }
      const args = ['--sessions', await tempDir('store'), '--base-url', model.url]
      const { bin, client, agent, init } = await connect(args, env)
      expect(init.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true)
      const { sessionId } = await agent.request('session/new', { cwd: workspace, mcpServers: [] })
      const uri = pathToFileURL(file).href
      await agent.request('session/prompt', {
        sessionId,
        prompt: [
          { type: 'text', text: 'Capitalise the first line of' },
          { type: 'resource', resource: { uri, text: 'one\ntwo, unsaved\n' } },
        ],
      })
      const user = model.bodies[0]?.messages.findLast((message) => message.role === 'user')
      expect(user?.content).toBe(
        `Capitalise the first line of @${file}\n\n` +
          `<attachment uri="${uri}" path="src/a.txt">\none\ntwo, unsaved\n</attachment>`,
      )
      const system = model.bodies[0]?.messages[0]?.content ?? ''
      expect(system).toContain('does not count as read')
      const closed = ofKind(updatesOf(client), 'tool_call_update').at(-1)
      expect(closed).toMatchObject({
        status: 'failed',
        rawOutput: { error: { code: 'FS_NOT_OBSERVED' } },
      })
      expect(await readFile(file, 'utf8')).toBe('one\ntwo\n')
      await finish(bin, client)
    } finally {
      model.close()
    }
  }, 60_000)
})

describe('deleting a session', () => {
  it('delete, then list, then load: the session is gone and the others stay', async () => {
    const workspace = await tempDir('work')
    const store = await tempDir('store')
    const script = await scriptFile({ turns: [{ text: 'a' }, { text: 'b' }] })
    const { bin, client, agent, init } = await connect(['--script', script, '--sessions', store])
    expect(init.agentCapabilities?.sessionCapabilities?.delete).toEqual({})
    const kept = (await agent.request('session/new', { cwd: workspace, mcpServers: [] })).sessionId
    await agent.request('session/prompt', {
      sessionId: kept,
      prompt: [{ type: 'text', text: 'keep' }],
    })
    const doomed = (await agent.request('session/new', { cwd: workspace, mcpServers: [] }))
      .sessionId
    await agent.request('session/prompt', {
      sessionId: doomed,
      prompt: [{ type: 'text', text: 'go' }],
    })
    // The session is live on this connection: it is closed first, then deleted.
    expect(await agent.request('session/delete', { sessionId: doomed })).toEqual({})
    expect((await readdir(store)).filter((name) => name.startsWith(doomed))).toEqual([])
    const list = await agent.request('session/list', { cwd: workspace })
    expect(list.sessions.map((session) => session.sessionId)).toEqual([kept])
    const load = await agent
      .request('session/load', { sessionId: doomed, cwd: workspace, mcpServers: [] })
      .catch((error: unknown) => error)
    expect(load).toMatchObject({ code: -32002 })
    // A prompt to it now finds no session either.
    const prompt = await agent
      .request('session/prompt', { sessionId: doomed, prompt: [{ type: 'text', text: 'x' }] })
      .catch((error: unknown) => error)
    expect(prompt).toMatchObject({ code: -32002 })
    await finish(bin, client)
  }, 60_000)

  it('a session another live process holds is refused with its pid, and nothing is removed', async () => {
    const workspace = await tempDir('work')
    const store = await tempDir('store')
    const script = await scriptFile({ turns: [{ text: 'Hi.' }] })
    const owner = await connect(['--script', script, '--sessions', store])
    const { sessionId } = await owner.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [],
    })
    const other = await connect(['--script', script, '--sessions', store])
    const before = (await readdir(store)).sort()
    const refused = await other.agent
      .request('session/delete', { sessionId })
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32600 })
    expect((refused as Error).message).toContain(`process ${owner.bin.child.pid}`)
    expect((await readdir(store)).sort()).toEqual(before)
    await finish(owner.bin, owner.client)
    // Once its owner is gone, the other process may delete it.
    expect(await other.agent.request('session/delete', { sessionId })).toEqual({})
    expect(await readdir(store)).toEqual([])
    await finish(other.bin, other.client)
  }, 60_000)
})
