import { afterEach, describe, expect, it } from 'vitest'
import { finishStop, finishTools, toolCall } from './helpers/fakes'
import { echoCall, echoHost as makeEchoHost, ofType } from './helpers/echo'
import { eventTypes } from './helpers/host'
import type { Host, HostOptions } from './helpers/host'

const hosts: Host[] = []
const echoHost = (options: HostOptions) => makeEchoHost(hosts, options)

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

describe('the tool loop', () => {
  it('tool calls run in order and their results reach the model on the next request', async () => {
    const script = {
      turns: [
        { text: 'Looking.', toolCalls: [echoCall('c1', 'a'), echoCall('c2', 'b')] },
        { text: 'Done.' },
      ],
    }
    const host = await echoHost({ script })
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('echo twice')
    expect(end.reason).toBe('completed')
    expect(host.calls.map((exec) => exec.arguments)).toEqual([{ text: 'a' }, { text: 'b' }])
    expect(eventTypes(agent.session.events)).toEqual([
      'turn/start',
      'user/message',
      'assistant/text',
      'context/usage',
      'tool/call',
      'tool/started',
      'tool/result',
      'tool/call',
      'tool/started',
      'tool/result',
      'assistant/text',
      'context/usage',
      'turn/end',
    ])
    expect(host.requests()).toHaveLength(2)
    expect(host.requests()[1].messages).toEqual([
      { role: 'user', content: 'echo twice' },
      {
        role: 'assistant',
        content: 'Looking.',
        toolCalls: [
          { id: 'c1', name: 'echo', arguments: '{"text":"a"}' },
          { id: 'c2', name: 'echo', arguments: '{"text":"b"}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', content: 'echo: a', isError: false },
      { role: 'tool', toolCallId: 'c2', content: 'echo: b', isError: false },
    ])
  })

  it('tool/call and tool/result events carry the call, the result and its details', async () => {
    const host = await echoHost({ script: { turns: [{ toolCalls: [echoCall('c1', 'hi')] }] } })
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('go')
    const turnId = end.turnId
    const [call] = ofType(agent.session.events, 'tool/call')
    const [result] = ofType(agent.session.events, 'tool/result')
    expect(call).toEqual({
      type: 'tool/call',
      turnId,
      callId: 'c1',
      name: 'echo',
      arguments: { text: 'hi' },
    })
    expect(result).toEqual({
      type: 'tool/result',
      turnId,
      callId: 'c1',
      name: 'echo',
      content: [{ type: 'text', text: 'echo: hi' }],
      isError: false,
      details: { length: 2 },
    })
    expect(new Set(agent.session.events.map((event) => 'turnId' in event && event.turnId))).toEqual(
      new Set([turnId]),
    )
  })

  it('a tool execution gets the call id, the parsed arguments, the agent and a signal', async () => {
    const host = await echoHost({ script: { turns: [{ toolCalls: [echoCall('c9', 'x')] }] } })
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('go')
    const [exec] = host.calls
    expect(exec.callId).toBe('c9')
    expect(exec.name).toBe('echo')
    expect(exec.arguments).toEqual({ text: 'x' })
    expect(exec.agent).toBe(agent)
    expect(exec.agent?.session.header.cwd).toBe(host.dir)
    expect(exec.signal).toBeInstanceOf(AbortSignal)
    expect(exec.signal?.aborted).toBe(false)
  })

  it('a request carries the system prompt with the extra prose, the tools and the model', async () => {
    const host = await echoHost({ script: { turns: [{ text: 'ok' }] } })
    const agent = host.agents.create({ cwd: host.dir, systemPrompt: 'Be brief.', model: 'm1' })
    await agent.send('hi')
    const [request] = host.requests()
    expect(request.system.endsWith('Be brief.')).toBe(true)
    expect(request.model).toBe('m1')
    expect(request.tools.map((tool) => tool.name)).toEqual(['echo'])
    expect(request.tools[0].parameters).toMatchObject({ properties: { text: { type: 'string' } } })
    expect(request.signal).toBeInstanceOf(AbortSignal)
  })

  it('text and reasoning stream as chunks that join to what the model said', async () => {
    const text = 'A fairly long answer that arrives in several pieces.'
    const host = await echoHost({ script: { turns: [{ reasoning: 'Think it over.', text }] } })
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('hi')
    const chunks = ofType(agent.session.events, 'assistant/chunk')
    const texts = chunks.filter((chunk) => chunk.kind === 'text').map((chunk) => chunk.text)
    const thoughts = chunks.filter((chunk) => chunk.kind === 'reasoning').map((c) => c.text)
    expect(texts.length).toBeGreaterThan(1)
    expect(texts.join('')).toBe(text)
    expect(thoughts.join('')).toBe('Think it over.')
    expect(eventTypes(agent.session.events)).toEqual([
      'turn/start',
      'user/message',
      'assistant/reasoning',
      'assistant/text',
      'context/usage',
      'turn/end',
    ])
  })

  it('a second turn sends the whole conversation so far', async () => {
    const script = {
      turns: [{ toolCalls: [echoCall('c1', 'a')] }, { text: 'First done.' }, { text: 'Again.' }],
    }
    const host = await echoHost({ script })
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('one')
    await agent.send('two')
    const messages = host.requests()[2].messages
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ])
    expect(messages[3]).toEqual({ role: 'assistant', content: 'First done.' })
    expect(messages[4]).toEqual({ role: 'user', content: 'two' })
  })
})

describe('tool failures go back to the model', () => {
  it('a throwing tool becomes an error result with its code and the turn continues', async () => {
    const script = { turns: [{ toolCalls: [echoCall('c1', 'fail')] }, { text: 'I see.' }] }
    const host = await echoHost({ script })
    const agent = host.agents.create({ cwd: host.dir })
    expect((await agent.send('go')).reason).toBe('completed')
    const [result] = ofType(agent.session.events, 'tool/result')
    expect(result.isError).toBe(true)
    expect(result.error).toEqual({ name: 'EchoError', code: 'ECHO_FAILED' })
    expect(host.requests()[1].messages[2]).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      content: 'Error: echo was told to fail',
      isError: true,
    })
  })

  it('an unknown tool becomes a TOOL_UNKNOWN result naming the available tools', async () => {
    const script = {
      turns: [{ toolCalls: [{ id: 'c1', name: 'nope', arguments: {} }] }, { text: 'Sorry.' }],
    }
    const host = await echoHost({ script })
    const agent = host.agents.create({ cwd: host.dir })
    expect((await agent.send('go')).reason).toBe('completed')
    const [result] = ofType(agent.session.events, 'tool/result')
    expect(result.error?.code).toBe('TOOL_UNKNOWN')
    expect(result.content[0].text).toContain('Unknown tool "nope". Available tools: echo')
    expect(host.requests()[1].messages[2]).toMatchObject({ toolCallId: 'c1', isError: true })
  })

  it('invalid JSON arguments reach no tool and the model reads why', async () => {
    const responses = [
      [toolCall('c1', 'echo', '{"text": "a"'), finishTools],
      [{ type: 'text-delta' as const, text: 'Retrying.' }, finishStop],
    ]
    const host = await echoHost({ responses })
    const agent = host.agents.create({ cwd: host.dir })
    expect((await agent.send('go')).reason).toBe('completed')
    expect(host.calls).toEqual([])
    const [call] = ofType(agent.session.events, 'tool/call')
    expect(call.arguments).toBe('{"text": "a"')
    const [result] = ofType(agent.session.events, 'tool/result')
    expect(result.isError).toBe(true)
    expect(result.error).toEqual({ name: 'ToolError', code: 'TOOL_INVALID_JSON' })
    const text = result.content[0].text
    expect(text).toMatch(/^Error: the arguments for "echo" are not valid JSON: .+\. Send a JSON/)
    expect(host.requests()[1].messages[2]).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      content: text,
      isError: true,
    })
  })

  it('JSON arguments that are not an object are refused by the registry', async () => {
    const responses = [[toolCall('c1', 'echo', '[1, 2]'), finishTools], [finishStop]]
    const host = await echoHost({ responses })
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('go')
    const [result] = ofType(agent.session.events, 'tool/result')
    expect(result.error?.code).toBe('TOOL_INVALID_ARGUMENTS')
    expect(host.calls).toEqual([])
  })

  it('an empty arguments text is read as an empty object', async () => {
    const responses = [[toolCall('c1', 'echo', ''), finishTools], [finishStop]]
    const host = await echoHost({ responses })
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('go')
    const [call] = ofType(agent.session.events, 'tool/call')
    expect(call.arguments).toEqual({})
    const [result] = ofType(agent.session.events, 'tool/result')
    expect(result.error?.code).toBe('TOOL_INVALID_ARGUMENTS')
    expect(result.content[0].text).toContain('text')
  })

  it('a tool call without an id gets one, used for its result too', async () => {
    const responses = [[toolCall('', 'echo', '{"text":"a"}'), finishTools], [finishStop]]
    const host = await echoHost({ responses })
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('go')
    const [call] = ofType(agent.session.events, 'tool/call')
    expect(call.callId).toBe('call_1')
    expect(host.requests()[1].messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call_1' })
  })
})

describe('cards before results', () => {
  it("the next model request waits until the calls' cards were written out", async () => {
    const script = { turns: [{ toolCalls: [echoCall('c1', 'a')] }, { text: 'Done.' }] }
    const host = await echoHost({ script })
    let written = (): void => undefined
    const writes: Promise<void>[] = []
    const channels = {
      written: () => {
        const write = new Promise<void>((resolve) => (written = resolve))
        writes.push(write)
        return write
      },
    }
    const agent = host.agents.create({ cwd: host.dir, channels })
    const end = agent.send('echo')
    await expect.poll(() => writes.length).toBe(1)
    expect(agent.session.events.some((event) => event.type === 'tool/result')).toBe(true)
    expect(host.requests()).toHaveLength(1)
    written()
    expect((await end).reason).toBe('completed')
    expect(host.requests()).toHaveLength(2)
  })

  it('a cancel ends the wait for the cards', async () => {
    const script = { turns: [{ toolCalls: [echoCall('c1', 'a')] }, { text: 'Done.' }] }
    const host = await echoHost({ script })
    let asked = 0
    const channels = { written: () => (asked++, new Promise<void>(() => {})) }
    const agent = host.agents.create({ cwd: host.dir, channels })
    const end = agent.send('echo')
    await expect.poll(() => asked).toBe(1)
    agent.cancel()
    expect((await end).reason).toBe('cancelled')
    expect(host.requests()).toHaveLength(1)
  })
})
