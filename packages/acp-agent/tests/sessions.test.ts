// Sessions that survive the process, over the BUILT bin's real stdio: a session with a read,
// an edit (its diff) and text; the process killed with SIGKILL; a new process on the same store
// lists it, replays each card once as it ended with session/load, and goes on — its model (a
// recording OpenAI-compatible server on 127.0.0.1) gets the earlier turn, and an edit right
// after the load is refused until the file is read again.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as acp from '@agentclientprotocol/sdk'
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { recordingServer, sse } from './helpers/recording-server'
import { envWithoutKey, startBin } from './helpers/spawn-bin'

const tempDir = tempDirs('dsh-sessions')

beforeAll(() => ensureBuilt(), 420_000)
const SCRIPT = {
  turns: [
    {
      text: 'Reading.',
      toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'a.txt' } }],
    },
    {
      toolCalls: [
        {
          id: 'e1',
          name: 'edit',
          arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' },
        },
      ],
    },
    { text: 'Fixed the first line.' },
  ],
}

/** Each card in the state its last update left it, in the order the cards opened. */
function cards(updates: readonly acp.SessionUpdate[]): acp.SessionUpdate[] {
  const ended = new Map<string, acp.SessionUpdate>()
  for (const update of updates) {
    if (update.sessionUpdate === 'tool_call') ended.set(update.toolCallId, update)
    if (update.sessionUpdate !== 'tool_call_update') continue
    const card = ended.get(update.toolCallId)
    const { sessionUpdate: _update, ...changes } = update
    if (card !== undefined)
      ended.set(update.toolCallId, { ...card, ...changes } as acp.SessionUpdate)
  }
  return [...ended.values()]
}

describe('a session across a killed process', () => {
  let workspace = ''
  let store = ''
  let sessionId = ''
  let original: acp.SessionUpdate[] = []

  beforeAll(async () => {
    workspace = await tempDir('work')
    store = await tempDir('store')
    const home = await tempDir('home')
    await writeFile(join(workspace, 'a.txt'), 'one\ntwo\n')
    await writeFile(join(home, 'script.json'), JSON.stringify(SCRIPT))
    const args = [
      '--script',
      join(home, 'script.json'),
      '--sessions',
      store,
      '--mode',
      'full-access',
    ]
    const bin = startBin(args, home)
    const client = new HarnessClient(bin.stream)
    const agent = client.connection.agent
    await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const session = await agent.request('session/new', { cwd: workspace, mcpServers: [] })
    sessionId = session.sessionId
    await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Fix the first line' }],
    })
    original = client.updates.map((n) => n.update)
    bin.child.kill('SIGKILL')
    await bin.exited
    assertAgentFramesValid(bin.frames)
  }, 60_000)

  it('a new process lists it, replays it card for card, and goes on from the earlier turn', async () => {
    expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('ONE\ntwo\n')
    const edit = { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' }
    const model = await recordingServer([
      [
        sse({
          tool_calls: [
            {
              index: 0,
              id: 'e2',
              type: 'function',
              function: { name: 'edit', arguments: JSON.stringify(edit) },
            },
          ],
        }),
        sse({}, 'tool_calls'),
      ],
      [sse({ content: 'The file must be read first.' }), sse({}, 'stop')],
    ])
    try {
      const env = { ...envWithoutKey(), DEEPSEEK_API_KEY: 'sk-local-test' }
      const args = ['--sessions', store, '--base-url', model.url, '--mode', 'full-access']
      const bin = startBin(args, await tempDir('home2'), env)
      const client = new HarnessClient(bin.stream)
      const agent = client.connection.agent
      const init = await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
      expect(init.agentCapabilities?.loadSession).toBe(true)
      expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({
        list: {},
        resume: {},
        close: {},
      })
      const list = await agent.request('session/list', { cwd: workspace })
      expect(list.sessions).toEqual([
        { sessionId, cwd: workspace, title: 'Fix the first line', updatedAt: expect.any(String) },
      ])
      await agent.request('session/load', { sessionId, cwd: workspace, mcpServers: [] })
      const replayed = client.updates.map((n) => n.update)
      expect(replayed[0]).toEqual({
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text: 'Fix the first line' },
      })
      expect(cards(replayed)).toEqual(cards(original))
      // Each card is replayed once, as it ended.
      expect(replayed.filter((u) => u.sessionUpdate === 'tool_call')).toEqual(cards(original))
      const diff = JSON.stringify(cards(replayed))
      expect(diff).toContain('"type":"diff"')
      const before = client.updates.length
      await agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'now the second line' }],
      })
      const [first] = model.bodies
      expect(first?.messages.map((message) => message.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
        'user',
      ])
      expect(first?.messages[1]?.content).toBe('Fix the first line')
      expect(JSON.stringify(first?.messages)).toContain('Fixed the first line.')
      const after = JSON.stringify(client.updates.slice(before).map((n) => n.update))
      expect(after).toContain('FS_NOT_OBSERVED')
      expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('ONE\ntwo\n')
      client.connection.close()
      bin.child.stdin.end()
      expect(await bin.exited).toBe(0)
      assertAgentFramesValid(bin.frames)
    } finally {
      model.close()
    }
  }, 60_000)
})

describe('two processes on one store', () => {
  it('the second is refused a session the first one writes, with a message naming it', async () => {
    const workspace = await tempDir('work2')
    const store = await tempDir('store2')
    const home = await tempDir('home3')
    await writeFile(join(home, 'script.json'), JSON.stringify({ turns: [{ text: 'Hi.' }] }))
    const args = ['--script', join(home, 'script.json'), '--sessions', store]
    const first = startBin(args, home)
    const owner = new HarnessClient(first.stream)
    await owner.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
    })
    const { sessionId } = await owner.connection.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [],
    })
    const second = startBin(args, home)
    const other = new HarnessClient(second.stream)
    await other.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
    })
    const refused = await other.connection.agent
      .request('session/load', { sessionId, cwd: workspace, mcpServers: [] })
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32600 })
    expect((refused as Error).message).toContain(String(first.child.pid))
    for (const bin of [first, second]) {
      bin.child.stdin.end()
      expect(await bin.exited).toBe(0)
      assertAgentFramesValid(bin.frames)
    }
  }, 60_000)
})
