import { afterEach, describe, expect, it } from 'vitest'
import { finishStop } from './helpers/fakes'
import { echoCall, echoHost as makeEchoHost, ofType } from './helpers/echo'
import type { Host, HostOptions } from './helpers/host'

const hosts: Host[] = []
const echoHost = (options: HostOptions) => makeEchoHost(hosts, options)

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

describe('turn end reasons', () => {
  it('the step limit ends the turn with max-steps after that many requests', async () => {
    const turns = [1, 2, 3].map((n) => ({ toolCalls: [echoCall(`c${n}`, `${n}`)] }))
    const host = await echoHost({ script: { turns }, maxSteps: 2 })
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('loop')
    expect(end.reason).toBe('max-steps')
    expect(host.requests()).toHaveLength(2)
    expect(host.calls.map((exec) => exec.callId)).toEqual(['c1', 'c2'])
    expect(agent.session.events.at(-1)).toBe(end)
  })

  it('an exhausted script ends the turn completed with the scripted notice', async () => {
    const host = await echoHost({ script: { turns: [] } })
    const agent = host.agents.create({ cwd: host.dir })
    expect((await agent.send('hi')).reason).toBe('completed')
    const text = ofType(agent.session.events, 'assistant/chunk')
      .map((chunk) => chunk.text)
      .join('')
    expect(text).toContain('The scripted model has no more turns')
  })

  it('a model failure ends the turn with error and the failure message', async () => {
    const host = await echoHost({ responses: [new Error('rate limited (429)')] })
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('hi')
    expect(end).toEqual({
      type: 'turn/end',
      turnId: end.turnId,
      reason: 'error',
      error: 'rate limited (429)',
    })
  })

  it('a stream that finishes with an error ends the turn with error', async () => {
    const responses = [[{ type: 'finish' as const, reason: 'error' as const }]]
    const host = await echoHost({ responses })
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('hi')
    expect(end.reason).toBe('error')
    expect(end.error).toBe('The model finished with an error.')
  })

  it('after a failed turn the agent runs the next one', async () => {
    const responses = [new Error('boom'), [{ type: 'text-delta' as const, text: 'ok' }, finishStop]]
    const host = await echoHost({ responses })
    const agent = host.agents.create({ cwd: host.dir })
    expect((await agent.send('one')).reason).toBe('error')
    expect((await agent.send('two')).reason).toBe('completed')
    expect(host.requests()[1].messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
    ])
  })
})

describe('a stream faster than it is read', () => {
  it('leaves the event loop its turns, so a timer cancels the turn mid-stream', async () => {
    // The scripted model plays 1,000,000 characters at once, 8 a piece, with no pause of its own.
    const text = 'streamed '.repeat(111_112)
    const host = await echoHost({ script: { turns: [{ text }] } })
    const agent = host.agents.create({ cwd: host.dir })
    let timerFired = false
    setTimeout(() => {
      timerFired = true
      agent.cancel()
    }, 0)
    const end = await agent.send('stream')
    expect(timerFired).toBe(true)
    expect(end.reason).toBe('cancelled')
    const streamed = ofType(agent.session.events, 'assistant/chunk')
    expect(streamed.map((chunk) => chunk.text).join('').length).toBeLessThan(text.length)
  })
})
