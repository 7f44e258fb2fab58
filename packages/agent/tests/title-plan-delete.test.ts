// The session's title on its live header (the rule the store lists), kept when restored; the
// current plan found in a log and the reminder a shortened conversation gets; deleting stored
// sessions through the host.
import { afterEach, describe, expect, it } from 'vitest'
import { currentPlanOf, sessionTitleOf } from '../src'
import type { StoredSessionEvent } from '../src'
import { echoHost as makeEchoHost } from './helpers/echo'
import type { Host, HostOptions } from './helpers/host'
import { MemorySessionStore } from './helpers/memory-store'

const hosts: Host[] = []
const echoHost = (options: HostOptions) => makeEchoHost(hosts, options)

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

describe('the title', () => {
  it('is the first line of the first message, cut to 80 characters', () => {
    expect(sessionTitleOf('  Fix the parser\nit breaks on tabs')).toBe('Fix the parser')
    const long = sessionTitleOf('x'.repeat(100))
    expect(long).toHaveLength(80)
    expect(long.endsWith('…')).toBe(true)
  })

  it('is set on the live header by the first message, stored, and kept when restored', async () => {
    const store = new MemorySessionStore()
    const host = await echoHost({ script: { turns: [{ text: 'a' }, { text: 'b' }] }, store })
    const agent = host.agents.create({ cwd: host.dir })
    expect(agent.session.header.title).toBeUndefined()
    await agent.send('Rename the flag\nand its docs')
    await agent.send('Something else')
    expect(agent.session.header.title).toBe('Rename the flag')
    const id = agent.session.header.id
    expect(host.agents.stored().sessions[0]?.title).toBe('Rename the flag')
    await agent.dispose()
    expect(host.agents.restore(id).session.header.title).toBe('Rename the flag')
  })
})

const turnId = 't'
function planEvents(): StoredSessionEvent[] {
  const result = (callId: string, text: string, content: string, isError = false) =>
    ({
      type: 'tool/result',
      turnId,
      callId,
      name: 'todo',
      content: [{ type: 'text', text }],
      isError,
      ...(!isError && {
        presentation: { plan: [{ content, status: 'pending', priority: 'medium' }] },
      }),
    }) as StoredSessionEvent
  return [
    result('p1', 'first plan', 'one'),
    { type: 'tool/result', turnId, callId: 'r1', name: 'read', content: [], isError: false },
    result('p2', 'second plan', 'two'),
    result('p3', 'refused plan', 'three', true),
  ]
}

describe('the current plan', () => {
  it('is the last successful result that set one', () => {
    expect(currentPlanOf(planEvents())).toEqual({
      callId: 'p2',
      entries: [{ content: 'two', status: 'pending', priority: 'medium' }],
      text: 'second plan',
    })
    expect(currentPlanOf([])).toBeUndefined()
  })
})

describe('deleting a stored session', () => {
  it('removes it from the store and says so on agents/deleted; a second delete is not found', async () => {
    const store = new MemorySessionStore()
    const host = await echoHost({ script: { turns: [{ text: 'a' }] }, store })
    const agent = host.agents.create({ cwd: host.dir })
    const keep = host.agents.create({ cwd: host.dir })
    await agent.send('hello')
    const id = agent.session.header.id
    await agent.dispose()
    const deleted: string[] = []
    host.ctx.on('agents/deleted', (gone) => void deleted.push(gone))
    host.agents.delete(id)
    expect(host.agents.stored().sessions.map((s) => s.id)).toEqual([keep.session.header.id])
    expect(() => host.agents.delete(id)).toThrow(
      expect.objectContaining({ code: 'AGENT_SESSION_NOT_FOUND' }),
    )
    // Told once, for the delete that removed it.
    expect(deleted).toEqual([id])
  })

  it('refuses a session live in this process, and finds nothing without a store', async () => {
    const store = new MemorySessionStore()
    const host = await echoHost({ script: { turns: [] }, store })
    const agent = host.agents.create({ cwd: host.dir })
    expect(() => host.agents.delete(agent.session.header.id)).toThrow(
      expect.objectContaining({ code: 'AGENT_SESSION_LOCKED' }),
    )
    expect(store.entries.has(agent.session.header.id)).toBe(true)
    const bare = await echoHost({ script: { turns: [] } })
    expect(() => bare.agents.delete('any')).toThrow(
      expect.objectContaining({ code: 'AGENT_SESSION_NOT_FOUND' }),
    )
  })
})
