import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import { chunkText, updatesOfKind, useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

describe('initialize', () => {
  it('advertises protocol 1, the dsh agent and only the capabilities it has', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    expect(harness.initialized).toEqual({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
        sessionCapabilities: { additionalDirectories: {}, close: {} },
      },
      authMethods: [],
      agentInfo: { name: 'dsh', version: '0.1.0' },
    })
  })
})

describe('session/new', () => {
  it('creates an agent whose session cwd is the requested cwd', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    const sessionId = await harness.newSession()
    const agent = harness.ctx.agents.get(sessionId)
    expect(agent?.session.header.cwd).toBe(harness.workspace)
    expect(harness.server.sessionIds()).toEqual([sessionId])
  })

  it('two sessions get two distinct agents', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    const first = await harness.newSession()
    const second = await harness.newSession()
    expect(first).not.toBe(second)
    expect(
      harness.ctx.agents
        .list()
        .map((agent) => agent.session.header.id)
        .sort(),
    ).toEqual([first, second].sort())
  })
})

describe('session/prompt', () => {
  it('streams the answer as message chunks and ends the turn with end_turn', async () => {
    const harness = await makeHarness({
      script: {
        turns: [{ reasoning: 'Thinking it over.', text: 'Hello from the scripted model.' }],
      },
    })
    const sessionId = await harness.newSession()
    const response = await harness.prompt(sessionId, 'hi')
    expect(response).toEqual({ stopReason: 'end_turn' })
    const updates = harness.updatesOf(sessionId)
    expect(chunkText(updates)).toBe('Hello from the scripted model.')
    expect(chunkText(updates, 'agent_thought_chunk')).toBe('Thinking it over.')
    expect(updatesOfKind(updates, 'agent_message_chunk').length).toBeGreaterThan(1)
  })

  it('every update of a turn arrives before the prompt response', async () => {
    const harness = await makeHarness({ script: { turns: [{ text: 'one two three four five' }] } })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'go')
    const agentFrames = harness.agentFrames()
    const response = agentFrames.findIndex((frame) => frame.method === 'session/prompt')
    const lastUpdate = agentFrames.findLastIndex((frame) => frame.method === 'session/update')
    expect(lastUpdate).toBeGreaterThan(-1)
    expect(response).toBeGreaterThan(lastUpdate)
  })

  it('a session takes a second prompt after the first ended', async () => {
    const harness = await makeHarness({
      script: { turns: [{ text: 'first' }, { text: 'second' }] },
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'one')
    await harness.prompt(sessionId, 'two')
    expect(chunkText(harness.updatesOf(sessionId))).toBe('firstsecond')
  })

  it('a turn stopped by the step limit settles with max_turn_requests', async () => {
    const harness = await makeHarness({
      maxSteps: 1,
      script: {
        turns: [{ toolCalls: [{ id: 'c1', name: 'missing', arguments: {} }] }, { text: 'never' }],
      },
    })
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'go')).toEqual({ stopReason: 'max_turn_requests' })
  })

  it('a resource link in the prompt reaches the agent as a mention of its file', async () => {
    const harness = await makeHarness({ script: { turns: [{ text: 'ok' }] } })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, [
      { type: 'text', text: 'read' },
      { type: 'resource_link', name: 'a.txt', uri: `file://${harness.workspace}/a.txt` },
    ])
    const agent = harness.ctx.agents.get(sessionId)
    const message = agent?.session.events.find((event) => event.type === 'user/message')
    expect(message).toMatchObject({ text: `read @${harness.workspace}/a.txt` })
  })
})

describe('tool call ids', () => {
  // A tool whose cards name its argument, so a card closed with another call's arguments shows.
  const say = defineTool({
    name: 'say',
    description: 'Says a word.',
    input: z.object({ word: z.string() }),
    execute: async (args) => args.word,
    presentCall: (args) => ({ title: `Say ${args.word}`, kind: 'other' }),
    presentResult: (args) => ({ title: `Said ${args.word}` }),
  })
  const setup = (ctx: Context) => {
    ctx.tools.register(say)
  }
  const sayCall = (word: string) => ({ id: 'c1', name: 'say', arguments: { word } })

  it('a model id reused in later requests of a session opens and closes a card of its own', async () => {
    const harness = await makeHarness({
      setup,
      script: {
        turns: [
          { toolCalls: [sayCall('one')] },
          { toolCalls: [sayCall('two')] },
          { text: 'first done' },
          { toolCalls: [sayCall('three')] },
          { text: 'second done' },
        ],
      },
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'first')
    await harness.prompt(sessionId, 'second')
    const updates = harness.updatesOf(sessionId)
    const opened = updatesOfKind(updates, 'tool_call').map((u) => [u.toolCallId, u.title])
    const closed = updatesOfKind(updates, 'tool_call_update').map((u) => [
      u.toolCallId,
      u.status,
      u.title,
    ])
    expect(opened).toEqual([
      ['c1', 'Say one'],
      ['c1#2', 'Say two'],
      ['c1#3', 'Say three'],
    ])
    expect(closed).toEqual([
      ['c1', 'completed', 'Said one'],
      ['c1#2', 'completed', 'Said two'],
      ['c1#3', 'completed', 'Said three'],
    ])
  })

  it('a model id that looks like a suffixed id does not collide with one', async () => {
    const harness = await makeHarness({
      setup,
      script: {
        turns: [
          { toolCalls: [sayCall('one')] },
          { toolCalls: [{ ...sayCall('two'), id: 'c1#2' }] },
          { toolCalls: [sayCall('three')] },
          { text: 'done' },
        ],
      },
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'go')
    const updates = harness.updatesOf(sessionId)
    const ids = updatesOfKind(updates, 'tool_call').map((u) => u.toolCallId)
    expect(ids).toEqual(['c1', 'c1#2', 'c1#3'])
    expect(updatesOfKind(updates, 'tool_call_update').map((u) => u.toolCallId)).toEqual(ids)
  })
})
