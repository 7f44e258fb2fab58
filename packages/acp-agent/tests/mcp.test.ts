// MCP servers from session/new, over the BUILT bin's real stdio with the SDK's own client: the
// test MCP server (a real child of the bin) and one over streamable HTTP on 127.0.0.1; the tools
// in the model's request, cards with titles and kinds, read-only unasked and writing asked, the
// timeout, cancel, a crash told once while the session goes on, and no server process left
// after session/close or after stdin ends (checked with the OS). Every frame checked valid.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as acp from '@agentclientprotocol/sdk'
import { choose } from '@deepseek-ai/dsh-acp-testing'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startHttpServer } from '../../mcp/tests/fixtures/http-server.mjs'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { openLiveSession } from './helpers/live-session'
import type { LiveSession, LiveSessionOptions } from './helpers/live-session'
import { recordingServer, textAnswer } from './helpers/recording-server'
import { envWithoutKey } from './helpers/spawn-bin'

const SERVER = fileURLToPath(new URL('../../mcp/tests/fixtures/stdio-server.mjs', import.meta.url))

const tempDir = tempDirs('dsh-mcp')

beforeAll(() => ensureBuilt(), 420_000)
let live: LiveSession | undefined
afterEach(async () => {
  if (live !== undefined) expect(await live.close()).toBe(0)
  live = undefined
})

interface Opened {
  session: LiveSession
  workspace: string
  /** The test server's entry, as the session was opened with it. */
  notes: acp.McpServer
  /** What the test server noted: its pid, its slow tool started and cancelled. */
  logged(): Promise<string[]>
}

const calls = (
  ...toolCalls: { name: string; arguments: Record<string, unknown> }[]
): LlmScript => ({
  turns: [
    ...toolCalls.map((call, index) => ({ toolCalls: [{ id: `m${index + 1}`, ...call }] })),
    { text: 'Done.' },
    { text: 'Again.' },
  ],
})

async function open(
  options: Partial<LiveSessionOptions> & { serverEnv?: acp.EnvVariable[] } = {},
): Promise<Opened> {
  const workspace = await tempDir('work')
  const log = join(await tempDir('log'), 'server.log')
  const notes: acp.McpServer = {
    name: 'notes',
    command: process.execPath,
    args: [SERVER],
    env: [{ name: 'MCP_TEST_LOG', value: log }, ...(options.serverEnv ?? [])],
  }
  live = await openLiveSession({
    workspace,
    home: await tempDir('home'),
    answer: choose('allow_once'),
    mcpServers: [notes],
    ...options,
  })
  const logged = async () =>
    (await readFile(log, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '')
  return { session: live, workspace, notes, logged }
}

async function pidsOf(opened: Opened): Promise<number[]> {
  return (await opened.logged()).filter((l) => l.startsWith('pid ')).map((l) => Number(l.slice(4)))
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  // A zombie (state Z) has ended; only its parent (init, for an orphan) has not read its exit.
  return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
}

async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the condition did not hold in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

function cardsOf(updates: readonly acp.SessionUpdate[], toolCallId: string) {
  return updates.filter(
    (u): u is Extract<acp.SessionUpdate, { toolCallId: string }> =>
      (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') &&
      u.toolCallId === toolCallId,
  )
}

function messages(updates: readonly acp.SessionUpdate[]): string {
  return updates
    .map((u) =>
      u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '',
    )
    .join('')
}

describe('the servers of a session', () => {
  it('initialize offers http servers and the tools reach the model request with the section', async () => {
    const model = await recordingServer([textAnswer('hi')])
    try {
      const env = { ...envWithoutKey(), DEEPSEEK_API_KEY: 'sk-local-test' }
      const { session } = await open({ env, args: ['--base-url', model.url] })
      expect(session.initialized.agentCapabilities?.mcpCapabilities).toEqual({
        http: true,
        sse: false,
      })
      expect(await session.prompt('hello')).toEqual({ stopReason: 'end_turn' })
      const [body] = model.bodies
      const names = body?.tools?.map((tool) => tool.function.name) ?? []
      expect(names).toEqual(
        expect.arrayContaining(['read', 'mcp__notes__lookup', 'mcp__notes__write_note']),
      )
      const lookup = body?.tools?.find((tool) => tool.function.name === 'mcp__notes__lookup')
      expect(lookup?.function.parameters).toMatchObject({
        properties: { word: { type: 'string' } },
      })
      expect(body?.messages[0]?.content).toContain('# MCP servers\n')
      expect(body?.messages[0]?.content).toContain('- notes: mcp__notes__lookup')
      expect(body?.messages[0]?.content).toContain('  Its instructions: Notes live in note.txt.')
    } finally {
      model.close()
    }
  })

  it('cards carry titles and kinds, a read-only tool runs unasked and a writing one is asked', async () => {
    const { session, workspace } = await open({
      script: calls(
        { name: 'mcp__notes__lookup', arguments: { word: 'cat' } },
        { name: 'mcp__notes__write_note', arguments: { text: 'hello' } },
      ),
    })
    expect(await session.prompt('look and write')).toEqual({ stopReason: 'end_turn' })
    const lookup = cardsOf(session.updates, 'm1')
    expect(lookup[0]).toMatchObject({
      sessionUpdate: 'tool_call',
      title: 'Look up a word',
      kind: 'read',
      status: 'in_progress',
    })
    expect(lookup.at(-1)).toMatchObject({ status: 'completed' })
    expect(lookup.at(-1)?.content).toEqual([
      { type: 'content', content: { type: 'text', text: 'cat: a word' } },
      {
        type: 'content',
        content: { type: 'image', data: expect.stringMatching(/^iVBOR/), mimeType: 'image/png' },
      },
      {
        type: 'content',
        content: { type: 'resource_link', uri: 'https://example.test/words/cat', name: 'cat' },
      },
      {
        type: 'content',
        content: {
          type: 'text',
          text: JSON.stringify({ word: 'cat', meaning: 'a word' }, null, 2),
        },
      },
    ])
    const write = cardsOf(session.updates, 'm2')
    // Hinted destructive, but it says it writes, not deletes: an edit.
    expect(write[0]).toMatchObject({ title: 'Write a note', kind: 'edit', status: 'pending' })
    expect(write.at(-1)).toMatchObject({ status: 'completed' })
    expect(session.permissionRequests.map((request) => request.toolCall.title)).toEqual([
      'Write a note',
    ])
    expect(await readFile(join(workspace, 'note.txt'), 'utf8')).toBe('hello')
  })

  it('a server over streamable http on 127.0.0.1 gives its tools with the headers given', async () => {
    const http = await startHttpServer()
    try {
      const web: acp.McpServer = {
        type: 'http',
        name: 'web',
        url: http.url,
        headers: [{ name: 'x-token', value: 'secret' }],
      }
      const { session } = await open({
        mcpServers: [web],
        script: calls({ name: 'mcp__web__lookup', arguments: { word: 'web' } }),
      })
      expect(await session.prompt('look')).toEqual({ stopReason: 'end_turn' })
      expect(cardsOf(session.updates, 'm1').at(-1)).toMatchObject({ status: 'completed' })
      expect(cardsOf(session.updates, 'm1')[0]).toMatchObject({
        title: 'Look up a word',
        kind: 'read',
      })
      expect(await session.close()).toBe(0)
      live = undefined
    } finally {
      await http.close()
    }
  })
})

describe('stored sessions', () => {
  it('a session loaded with its servers gets their tools again', async () => {
    const lookup = (id: string) => ({
      toolCalls: [{ id, name: 'mcp__notes__lookup', arguments: { word: id } }],
    })
    const opened = await open({
      script: { turns: [lookup('m1'), { text: 'Done.' }, lookup('m2'), { text: 'Again.' }] },
    })
    const { session, workspace } = opened
    expect(await session.prompt('look')).toEqual({ stopReason: 'end_turn' })
    const [first] = await pidsOf(opened)
    const { agent, sessionId } = session
    await agent.request(acp.methods.agent.session.close, { sessionId })
    expect(isRunning(first!)).toBe(false)
    await agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: workspace,
      mcpServers: [opened.notes],
    })
    expect(await session.prompt('look again')).toEqual({ stopReason: 'end_turn' })
    expect(cardsOf(session.updates, 'm2').at(-1)).toMatchObject({ status: 'completed' })
    expect((await pidsOf(opened)).filter(isRunning)).toHaveLength(1)
  })
})

describe('slow calls', () => {
  it('a call past --mcp-timeout fails and is cancelled on the server', async () => {
    const opened = await open({
      args: ['--mcp-timeout', '0.5'],
      script: calls({ name: 'mcp__notes__slow', arguments: { ms: 30_000 } }),
    })
    expect(await opened.session.prompt('wait')).toEqual({ stopReason: 'end_turn' })
    const card = cardsOf(opened.session.updates, 'm1').at(-1)
    expect(card).toMatchObject({ status: 'failed', rawOutput: { error: { code: 'MCP_TIMEOUT' } } })
    await eventually(async () => (await opened.logged()).includes('slow cancelled'))
  })

  it('the running card shows the server progress, and session/cancel cancels the call on the server', async () => {
    const opened = await open({
      script: calls({ name: 'mcp__notes__slow', arguments: { ms: 30_000 } }),
    })
    const { session } = opened
    const prompt = session.prompt('wait')
    await eventually(async () => (await opened.logged()).includes('slow started'))
    // The server's progress shows on the running card.
    await eventually(async () =>
      cardsOf(session.updates, 'm1').some(
        (update) => 'title' in update && update.title === 'notes: slow (1 of 2: waiting)',
      ),
    )
    await session.agent.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId })
    expect(await prompt).toEqual({ stopReason: 'cancelled' })
    await eventually(async () => (await opened.logged()).includes('slow cancelled'))
    expect(cardsOf(session.updates, 'm1').at(-1)).toMatchObject({ status: 'failed' })
  })
})

describe('failures', () => {
  it('a crash fails its card, is told once as a notice, and the session goes on', async () => {
    const opened = await open({
      clientCapabilities: { session: { notices: {} } },
      script: calls({ name: 'mcp__notes__crash', arguments: {} }),
    })
    const { session } = opened
    expect(await session.prompt('crash it')).toEqual({ stopReason: 'end_turn' })
    const [pid] = await pidsOf(opened)
    expect(cardsOf(session.updates, 'm1').at(-1)).toMatchObject({
      status: 'failed',
      rawOutput: { error: { code: 'MCP_SERVER_GONE' } },
    })
    await eventually(() => session.updates.some((u) => u.sessionUpdate === 'notice'))
    expect(await session.prompt('still there?')).toEqual({ stopReason: 'end_turn' })
    const notices = session.updates.filter((u) => u.sessionUpdate === 'notice')
    expect(notices).toEqual([
      expect.objectContaining({
        severity: 'error',
        title: 'MCP server "notes" stopped.',
        description: expect.stringContaining('boom: the notes server crashed\nsecond line'),
      }),
    ])
    expect(messages(session.updates)).toContain('Again.')
    expect(isRunning(pid!)).toBe(false)
  })

  it('a server that does not start is told as a message with its stderr when notices are not offered', async () => {
    const { session } = await open({
      serverEnv: [{ name: 'MCP_TEST_FAIL_START', value: '1' }],
      script: { turns: [{ text: 'Fine.' }] },
    })
    await eventually(() => messages(session.updates).includes('did not start'))
    expect(messages(session.updates)).toContain('MCP server "notes" did not start.')
    // Quoted as dsh's own words (the client has no notices), its stderr line by line.
    expect(messages(session.updates)).toContain('> cannot open the notes database\n> at startup')
    expect(await session.prompt('go on')).toEqual({ stopReason: 'end_turn' })
    expect(session.updates.some((u) => u.sessionUpdate === 'notice')).toBe(false)
  })
})

describe('no process left', () => {
  it('session/close ends the server before it is answered', async () => {
    const opened = await open({
      script: calls({ name: 'mcp__notes__lookup', arguments: { word: 'a' } }),
    })
    await opened.session.prompt('look')
    const pids = await pidsOf(opened)
    expect(pids.filter(isRunning)).toHaveLength(1)
    await opened.session.agent.request(acp.methods.agent.session.close, {
      sessionId: opened.session.sessionId,
    })
    expect(pids.filter(isRunning)).toEqual([])
  })

  it('stdin ending ends a server’s child that left its process group (setsid)', async () => {
    const opened = await open({
      script: calls({ name: 'mcp__notes__lookup', arguments: { word: 'a' } }),
      serverEnv: [{ name: 'MCP_TEST_SETSID', value: '1' }],
    })
    await opened.session.prompt('look')
    const line = (await opened.logged()).find((logged) => logged.startsWith('setsid '))
    const detached = Number(line?.slice('setsid '.length))
    expect(isRunning(detached)).toBe(true)
    expect(await opened.session.close()).toBe(0)
    live = undefined
    await eventually(() => !isRunning(detached), 3000)
  })

  it('stdin ending ends the bin and every server it started', async () => {
    const opened = await open({
      script: calls({ name: 'mcp__notes__lookup', arguments: { word: 'a' } }),
    })
    await opened.session.prompt('look')
    const pids = await pidsOf(opened)
    expect(pids.filter(isRunning)).toHaveLength(1)
    expect(await opened.session.close()).toBe(0)
    live = undefined
    expect(pids.filter(isRunning)).toEqual([])
  })
})
