import { Context } from 'cordis'
import { defineTool } from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AgentError } from '../src'
import type { Agent, SessionEvent } from '../src'
import { createHost, eventTypes, nextEvent } from './helpers/host'
import type { Host, HostOptions } from './helpers/host'
import type { RecordingLlm } from './helpers/fakes'

const hosts: Host[] = []

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

interface SlowTool {
  signals: AbortSignal[]
}

/** A host with a `slow` tool that runs until its signal aborts, then reports it stopped. */
async function slowHost(options: HostOptions): Promise<Host & SlowTool> {
  const host = await createHost(options)
  hosts.push(host)
  const signals: AbortSignal[] = []
  host.ctx.tools.register(
    defineTool({
      name: 'slow',
      description: 'Waits until cancelled.',
      input: z.object({}),
      execute: (_args, exec) =>
        new Promise<string>((resolve) => {
          if (exec.signal) signals.push(exec.signal)
          exec.signal?.addEventListener('abort', () => resolve('stopped'), { once: true })
        }),
    }),
  )
  return { ...host, signals }
}

const slowCall = (id: string) => ({ id, name: 'slow', arguments: {} })

async function expectRejection(promise: Promise<unknown>, code: string): Promise<AgentError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(AgentError)
  expect((error as AgentError).code).toBe(code)
  return error as AgentError
}

describe('one turn at a time', () => {
  it('a second send while a turn runs is refused with AGENT_BUSY and logs nothing', async () => {
    const host = await slowHost({ script: { turns: [{ toolCalls: [slowCall('c1')] }] } })
    const agent = host.agents.create({ cwd: host.dir })
    const started = nextEvent(agent, 'tool/call')
    const turn = agent.send('first')
    await started
    expect(agent.running).toBe(true)
    const logged = agent.session.events.length
    const error = await expectRejection(agent.send('second'), 'AGENT_BUSY')
    expect(error.message).toContain('wait for it to end or cancel it')
    expect(agent.session.events).toHaveLength(logged)
    agent.cancel()
    await turn
    expect(agent.running).toBe(false)
  })

  it('a listener of turn/end may send the next message at once', async () => {
    const host = await slowHost({ script: { turns: [{ text: 'one' }, { text: 'two' }] } })
    const agent = host.agents.create({ cwd: host.dir })
    const next: Promise<unknown>[] = []
    const unsubscribe = agent.subscribe((event) => {
      if (event.type !== 'turn/end') return
      unsubscribe()
      next.push(agent.send('again'))
    })
    await agent.send('first')
    expect(next).toHaveLength(1)
    expect(await next[0]).toMatchObject({ type: 'turn/end', reason: 'completed' })
  })

  it('an empty or blank message is refused with AGENT_EMPTY_MESSAGE', async () => {
    const host = await slowHost({})
    const agent = host.agents.create({ cwd: host.dir })
    await expectRejection(agent.send(''), 'AGENT_EMPTY_MESSAGE')
    await expectRejection(agent.send(' \n\t'), 'AGENT_EMPTY_MESSAGE')
    await expectRejection(agent.send(undefined as unknown as string), 'AGENT_EMPTY_MESSAGE')
    expect(agent.session.events).toEqual([])
    expect(agent.running).toBe(false)
  })
})

describe('cancel', () => {
  it('cancel during a slow tool aborts its signal and ends the turn cancelled', async () => {
    const script = { turns: [{ toolCalls: [slowCall('c1'), slowCall('c2')] }, { text: 'never' }] }
    const host = await slowHost({ script })
    const agent = host.agents.create({ cwd: host.dir })
    const started = nextEvent(agent, 'tool/call')
    const turn = agent.send('go')
    await started
    agent.cancel()
    const end = await turn
    expect(end.reason).toBe('cancelled')
    expect(host.signals).toHaveLength(1)
    expect(host.signals[0].aborted).toBe(true)
    expect(host.requests()).toHaveLength(1)
    expect(eventTypes(agent.session.events)).toEqual([
      'turn/start',
      'user/message',
      'context/usage',
      'tool/call',
      'tool/started',
      'tool/result',
      'turn/end',
    ])
  })

  it('the next turn after a cancel sends a result for every earlier tool call', async () => {
    const script = {
      turns: [{ toolCalls: [slowCall('c1'), slowCall('c2')] }, { text: 'Fine.' }],
    }
    const host = await slowHost({ script })
    const agent = host.agents.create({ cwd: host.dir })
    const started = nextEvent(agent, 'tool/call')
    const turn = agent.send('go')
    await started
    agent.cancel()
    await turn
    expect((await agent.send('again')).reason).toBe('completed')
    const messages = host.requests()[1].messages
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ])
    expect(messages[3]).toEqual({
      role: 'tool',
      toolCallId: 'c2',
      content: 'Error: the turn was cancelled before this tool ran.',
      isError: true,
    })
  })

  it('cancel during model streaming stops the stream and ends the turn cancelled', async () => {
    const text = 'This answer streams slowly, piece by piece, and is cut off early.'
    const script = { turns: [{ text, toolCalls: [slowCall('c1')] }] }
    const host = await slowHost({ script, delayMs: 5 })
    const agent = host.agents.create({ cwd: host.dir })
    const firstChunk = nextEvent(agent, 'assistant/chunk')
    const turn = agent.send('go')
    await firstChunk
    agent.cancel()
    const end = await turn
    expect(end.reason).toBe('cancelled')
    const streamed = agent.session.events.filter((event) => event.type === 'assistant/chunk')
    expect(streamed.length).toBeLessThan(Math.ceil(text.length / 8))
    expect(host.signals).toEqual([])
    expect((host.ctx.llm as unknown as RecordingLlm).requests[0].signal?.aborted).toBe(true)
  })

  it('cancel ends the turn even when the model stream ignores the signal', async () => {
    const host = await slowHost({
      responses: [{ thenHang: [{ type: 'text-delta', text: 'Hmm' }] }],
    })
    const agent = host.agents.create({ cwd: host.dir })
    const firstChunk = nextEvent(agent, 'assistant/chunk')
    const turn = agent.send('go')
    await firstChunk
    agent.cancel()
    expect((await turn).reason).toBe('cancelled')
  })

  it('cancel with no turn running changes nothing', async () => {
    const host = await slowHost({ script: { turns: [{ text: 'ok' }] } })
    const agent = host.agents.create({ cwd: host.dir })
    agent.cancel()
    expect(agent.session.events).toEqual([])
    expect((await agent.send('hi')).reason).toBe('completed')
  })
})

describe('subscribers', () => {
  it('a subscriber gets every event synchronously, in log order', async () => {
    const host = await slowHost({ script: { turns: [{ text: 'Hello there.' }] } })
    const agent = host.agents.create({ cwd: host.dir })
    const seen: SessionEvent[] = []
    agent.subscribe((event) => {
      seen.push(event)
      expect(agent.session.events.at(-1)).toBe(event)
    })
    await agent.send('hi')
    expect(seen).toEqual(agent.session.events)
  })

  it('a throwing listener breaks neither the turn nor other listeners', async () => {
    const host = await slowHost({ script: { turns: [{ text: 'ok' }] } })
    const agent = host.agents.create({ cwd: host.dir })
    agent.subscribe(() => {
      throw new Error('listener bug')
    })
    const seen: SessionEvent[] = []
    agent.subscribe((event) => seen.push(event))
    expect((await agent.send('hi')).reason).toBe('completed')
    expect(seen).toEqual(agent.session.events)
  })

  it('an unsubscribed listener gets no further events', async () => {
    const host = await slowHost({ script: { turns: [{ text: 'one' }, { text: 'two' }] } })
    const agent = host.agents.create({ cwd: host.dir })
    const seen: SessionEvent[] = []
    const unsubscribe = agent.subscribe((event) => seen.push(event))
    await agent.send('first')
    const count = seen.length
    unsubscribe()
    await agent.send('second')
    expect(seen).toHaveLength(count)
    expect(agent.session.events.length).toBeGreaterThan(count)
  })
})

describe('dispose', () => {
  async function startSlowTurn(host: Host): Promise<{ agent: Agent; turn: Promise<unknown> }> {
    const agent = host.agents.create({ cwd: host.dir })
    const started = nextEvent(agent, 'tool/call')
    const turn = agent.send('go')
    await started
    return { agent, turn }
  }

  it('disposing the plugin cancels a running turn and releases every agent', async () => {
    const host = await slowHost({ script: { turns: [{ toolCalls: [slowCall('c1')] }] } })
    const { agents } = host
    const idle = agents.create({ cwd: host.dir })
    const { agent, turn } = await startSlowTurn(host)
    await host.agentsFiber.dispose()
    expect(host.signals[0].aborted).toBe(true)
    expect(agent.session.events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'cancelled' })
    expect(await turn).toMatchObject({ reason: 'cancelled' })
    expect(agents.list()).toEqual([])
    expect(agent.disposed && idle.disposed).toBe(true)
    await expectRejection(agent.send('more'), 'AGENT_DISPOSED')
    expect(() => agents.create({ cwd: host.dir })).toThrow(/disposed/)
  })

  it('a disposed agent refuses send with AGENT_DISPOSED and leaves the list', async () => {
    const host = await slowHost({})
    const agent = host.agents.create({ cwd: host.dir })
    await agent.dispose()
    await expectRejection(agent.send('hi'), 'AGENT_DISPOSED')
    expect(host.agents.get(agent.session.header.id)).toBeUndefined()
    expect(agent.session.events).toEqual([])
  })

  it('disposing an agent during a turn ends that turn cancelled', async () => {
    const host = await slowHost({ script: { turns: [{ toolCalls: [slowCall('c1')] }] } })
    const { agent, turn } = await startSlowTurn(host)
    await agent.dispose()
    expect(await turn).toMatchObject({ reason: 'cancelled' })
  })

  it('an agent is released when the plugin that created it is disposed', async () => {
    const host = await slowHost({})
    const created: Agent[] = []
    const fiber = await host.ctx
      .plugin({
        name: 'creator',
        inject: ['agents'],
        apply: (ctx: Context) => void created.push(ctx.agents.create({ cwd: host.dir })),
      })
      .await()
    expect(host.agents.list()).toEqual(created)
    await fiber.dispose()
    expect(created[0].disposed).toBe(true)
    expect(host.agents.list()).toEqual([])
  })
})
