// Thinking by what the server does, over the BUILT bin's real stdio, against a server on
// 127.0.0.1 that plays DeepSeek's rules (thinking on unless disabled, reasoning streamed, a 400
// in DeepSeek's words when the reasoning of a tool-calling answer is not sent back). A turn
// with a tool call ends `end_turn` for deepseek-flash, for a DeepSeek id no table knows, for a
// local model's name, in a delegate, and after session/load in a new process. Every frame the
// bin wrote is checked against the ACP schema.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { MISSING_REASONING, deepseekServer } from './helpers/deepseek-server'
import type { DeepSeekServer } from './helpers/deepseek-server'
import { textAnswer, toolCallAnswer } from './helpers/recording-server'
import { envWithoutKey, startBin } from './helpers/spawn-bin'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-deepseek-thinking')

beforeAll(() => ensureBuilt(), 420_000)

/** The reads of a turn that calls one tool: the call, then an answer. */
const readThenAnswer = () => [
  toolCallAnswer('r1', 'read', { file_path: 'a.txt' }),
  textAnswer('a.txt says A.'),
]

/** A bin on `server` with `args`: one prompt in a fresh session (in `cwd`, holding a.txt). */
async function promptOnce(server: DeepSeekServer, args: string[], store?: string) {
  const env = { ...envWithoutKey(), DEEPSEEK_API_KEY: 'sk-local-test' }
  const cwd = await tempDir('work')
  await writeFile(join(cwd, 'a.txt'), 'A\n')
  const sessions = store ?? (await tempDir('store'))
  const bin = startBin(
    ['--base-url', server.url, '--sessions', sessions, '--mode', 'auto-edit', ...args],
    await tempDir('home'),
    env,
  )
  const client = new HarnessClient(bin.stream)
  const agent = client.connection.agent
  await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] })
  const answer = await agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'What does a.txt say?' }],
  })
  client.connection.close()
  bin.child.stdin.end()
  expect(await bin.exited).toBe(0)
  assertAgentFramesValid(bin.frames)
  return { answer, sessionId, cwd, sessions, env }
}

/** The assistant messages with tool calls of a request body. */
const toolCalling = (body: DeepSeekServer['bodies'][number]) =>
  (body.messages as { role: string; tool_calls?: unknown[]; reasoning_content?: unknown }[]).filter(
    (message) => message.role === 'assistant' && (message.tool_calls ?? []).length > 0,
  )

describe('a turn with a tool call on a server that plays DeepSeek’s rules', () => {
  it.each([
    ['deepseek-flash, the default', []],
    ['a DeepSeek id no table knows', ['--model', 'deepseek-v9-thinker']],
    ['a local model’s own name', ['--model', 'qwen3-coder:30b']],
  ])('ends end_turn for %s, its reasoning sent back with the call', async (_name, args) => {
    const server = await deepseekServer(readThenAnswer())
    try {
      const { answer } = await promptOnce(server, args)
      expect(server.refused).toEqual([])
      expect(answer.stopReason).toBe('end_turn')
      expect(server.bodies).toHaveLength(2)
      expect(toolCalling(server.bodies[1]!).map((message) => message.reasoning_content)).toEqual([
        'Thinking 0.',
      ])
    } finally {
      server.close()
    }
  })

  it('in a delegate, whose conversation sends its own reasoning back', async () => {
    const task = { description: 'read a', prompt: 'Read a.txt and say what it says.' }
    const server = await deepseekServer([
      toolCallAnswer('t1', 'task', task),
      toolCallAnswer('r1', 'read', { file_path: 'a.txt' }),
      textAnswer('It says A.'),
      textAnswer('The delegate found A.'),
    ])
    try {
      const { answer } = await promptOnce(server, [])
      expect(server.refused).toEqual([])
      expect(answer.stopReason).toBe('end_turn')
      expect(server.bodies).toHaveLength(4)
      expect(toolCalling(server.bodies[2]!).map((message) => message.reasoning_content)).toEqual([
        'Thinking 1.',
      ])
      expect(toolCalling(server.bodies[3]!).map((message) => message.reasoning_content)).toEqual([
        'Thinking 0.',
      ])
    } finally {
      server.close()
    }
  })

  it('after session/load in a new process, the stored reasoning goes back', async () => {
    const server = await deepseekServer([...readThenAnswer(), textAnswer('Still A.')])
    try {
      const first = await promptOnce(server, ['--model', 'qwen3-coder:30b'])
      const bin = startBin(
        ['--base-url', server.url, '--sessions', first.sessions, '--model', 'qwen3-coder:30b'],
        await tempDir('home'),
        first.env,
      )
      const client = new HarnessClient(bin.stream)
      const agent = client.connection.agent
      await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
      await agent.request('session/load', {
        sessionId: first.sessionId,
        cwd: first.cwd,
        mcpServers: [],
      })
      const answer = await agent.request('session/prompt', {
        sessionId: first.sessionId,
        prompt: [{ type: 'text', text: 'And now?' }],
      })
      client.connection.close()
      bin.child.stdin.end()
      expect(await bin.exited).toBe(0)
      assertAgentFramesValid(bin.frames)
      expect(server.refused).toEqual([])
      expect(answer.stopReason).toBe('end_turn')
      expect(toolCalling(server.bodies[2]!).map((message) => message.reasoning_content)).toEqual([
        'Thinking 0.',
      ])
    } finally {
      server.close()
    }
  })

  it('the server refuses a thinking request that dropped the reasoning, in DeepSeek’s words', async () => {
    const server = await deepseekServer([textAnswer('never')])
    try {
      const call = { id: 'r1', type: 'function', function: { name: 'read', arguments: '{}' } }
      const messages = [
        { role: 'user', content: 'read' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'r1', content: 'A' },
      ]
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'anything', messages, stream: true }),
      })
      expect(response.status).toBe(400)
      expect(await response.text()).toContain(MISSING_REASONING)
      const off = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({
          model: 'x',
          messages,
          thinking: { type: 'disabled' },
          stream: true,
        }),
      })
      expect(off.status).toBe(200)
      await off.text()
    } finally {
      server.close()
    }
  })
})
