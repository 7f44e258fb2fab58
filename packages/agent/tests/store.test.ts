// Sessions kept in a store: every event recorded as it happens (results without details), the
// header kept current and made durable at each turn end, and a stored session restored as a
// live agent whose model gets the earlier conversation and whose reads start fresh.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LONG_STRING_CHARS } from '@deepseek-ai/dsh-tools'
import type { SessionStore, SessionWriter, StoredSessionEvent } from '../src'
import { historyOf } from '../src/turn/history'
import { echoCall, echoHost as makeEchoHost } from './helpers/echo'
import { createHost } from './helpers/host'
import type { Host, HostOptions } from './helpers/host'
import { MemorySessionStore } from './helpers/memory-store'

const hosts: Host[] = []
const echoHost = (options: HostOptions) => makeEchoHost(hosts, options)

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

describe('recording', () => {
  it('stores every event in order, a result without details, a title, and syncs at turn end', async () => {
    const store = new MemorySessionStore()
    const script = {
      turns: [{ text: 'Echoing.', toolCalls: [echoCall('c1', 'hi')] }, { text: 'Done.' }],
    }
    const host = await echoHost({ script, store })
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('Please echo hi\nand then stop')
    const entry = store.entries.get(agent.session.header.id)!
    expect(entry.events.map((event) => event.type)).toEqual(
      agent.session.events.map((event) => event.type),
    )
    const result = entry.events.find((event) => event.type === 'tool/result')
    expect(result).toMatchObject({ callId: 'c1', content: [{ type: 'text', text: 'echo: hi' }] })
    expect(result && 'details' in result).toBe(false)
    expect(entry.header).toMatchObject({ id: agent.session.header.id, title: 'Please echo hi' })
    expect(Date.parse(entry.header.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(entry.header.createdAt),
    )
    expect(entry.syncs).toBe(1)
  })

  it('a store that fails is reported and the turn still completes', async () => {
    const failing: SessionStore = {
      create: (): SessionWriter => ({
        append: () => {
          throw new Error('disk full')
        },
        saveHeader: () => undefined,
        sync: () => undefined,
        close: () => undefined,
      }),
      open: () => {
        throw new Error('unused')
      },
      list: () => ({ sessions: [] }),
      delete: () => undefined,
    }
    const host = await createHost({ script: { turns: [{ text: 'Fine.' }] }, store: failing })
    hosts.push(host)
    const agent = host.agents.create({ cwd: host.dir })
    expect((await agent.send('hello')).reason).toBe('completed')
  })
})

describe('long arguments', () => {
  it('a write of a whole large file is stored clipped, its cards hold no long string, and the file is whole', async () => {
    const store = new MemorySessionStore()
    const content = `${'0123456789'.repeat(30_000)}\n`
    const write = { id: 'w1', name: 'write', arguments: { file_path: 'big.txt', content } }
    const script = { turns: [{ toolCalls: [write] }, { text: 'Done.' }] }
    const host = await createHost({ fs: true, script, store })
    hosts.push(host)
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('write it')
    expect(await readFile(join(host.dir, 'big.txt'), 'utf8')).toBe(content)
    const live = agent.session.events.find((event) => event.type === 'tool/call')
    expect(live?.arguments).toEqual(write.arguments)
    const events = store.entries.get(agent.session.header.id)!.events
    const stored = events.find((event) => event.type === 'tool/call')
    const storedContent = (stored?.arguments as { content: string }).content
    expect(storedContent.length).toBeLessThanOrEqual(LONG_STRING_CHARS)
    expect(storedContent).toMatch(/^(0123456789)+[0-9]*… \(\d+ more characters\)$/)
    const longest = Math.max(...stringsOf(events).map((text) => text.length))
    expect(longest).toBeLessThanOrEqual(LONG_STRING_CHARS)
    const result = events.find((event) => event.type === 'tool/result')
    expect(result?.presentation?.title).toBe('Created big.txt')
  })
})

/** Every string inside a value. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (typeof value !== 'object' || value === null) return []
  return Object.values(value).flatMap(stringsOf)
}

describe('restoring', () => {
  it('goes on from the stored conversation: the next request carries the earlier turn', async () => {
    const store = new MemorySessionStore()
    const script = {
      turns: [
        { reasoning: 'Think.', text: 'Echoing.', toolCalls: [echoCall('c1', 'hi')] },
        { text: 'Done.' },
        { text: 'Second answer.' },
      ],
    }
    const first = await echoHost({ script, store })
    const agent = first.agents.create({ cwd: first.dir, mode: 'auto-edit' })
    await agent.send('echo hi')
    const id = agent.session.header.id
    await agent.dispose()
    const restored = first.agents.restore(id)
    expect(restored.session.header).toMatchObject({ id, cwd: first.dir, mode: 'auto-edit' })
    expect(restored.session.events).toHaveLength(agent.session.events.length)
    await restored.send('and now?')
    const last = first.requests().at(-1)!
    expect(last.messages).toEqual([
      { role: 'user', content: 'echo hi' },
      {
        role: 'assistant',
        content: 'Echoing.',
        reasoning: 'Think.',
        toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"hi"}' }],
      },
      { role: 'tool', toolCallId: 'c1', content: 'echo: hi', isError: false },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'and now?' },
    ])
  })

  it('refuses a session live here, and finds nothing without a store', async () => {
    const store = new MemorySessionStore()
    const host = await echoHost({ script: { turns: [] }, store })
    const agent = host.agents.create({ cwd: host.dir })
    expect(() => host.agents.restore(agent.session.header.id)).toThrow(
      expect.objectContaining({ code: 'AGENT_SESSION_LOCKED' }),
    )
    expect(() => host.agents.restore('nope')).toThrow(
      expect.objectContaining({ code: 'AGENT_SESSION_NOT_FOUND' }),
    )
    const bare = await echoHost({ script: { turns: [] } })
    expect(bare.agents.stores).toBe(false)
    expect(() => bare.agents.restore('any')).toThrow(
      expect.objectContaining({ code: 'AGENT_SESSION_NOT_FOUND' }),
    )
    expect(bare.agents.stored()).toEqual({ sessions: [] })
  })

  it('starts the read-before-edit rule fresh: an edit after a restore needs a new read', async () => {
    const store = new MemorySessionStore()
    const read = { id: 'r1', name: 'read', arguments: { file_path: 'a.txt' } }
    const edit = {
      id: 'e1',
      name: 'edit',
      arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' },
    }
    const script = {
      turns: [{ toolCalls: [read] }, { text: 'Read.' }, { toolCalls: [edit] }, { text: 'Tried.' }],
    }
    const host = await createHost({ fs: true, script, store })
    hosts.push(host)
    await writeFile(join(host.dir, 'a.txt'), 'one\n')
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('read it')
    await agent.dispose()
    const restored = host.agents.restore(agent.session.header.id)
    await restored.send('edit it')
    const result = restored.session.events.findLast((event) => event.type === 'tool/result')
    expect(result).toMatchObject({ callId: 'e1', error: { code: 'FS_NOT_OBSERVED' } })
  })
})

describe('the conversation from a log', () => {
  const turn = 't1'
  it('gives a call the log has no result for a result saying the session ended', () => {
    const events: StoredSessionEvent[] = [
      { type: 'turn/start', turnId: turn },
      { type: 'user/message', turnId: turn, text: 'go' },
      { type: 'tool/call', turnId: turn, callId: 'c1', name: 'echo', arguments: { text: 'x' } },
    ]
    expect(historyOf(events)).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text":"x"}' }],
      },
      {
        role: 'tool',
        toolCallId: 'c1',
        content: 'Error: the session ended before this tool finished.',
        isError: true,
      },
    ])
  })

  it('splits the responses of one turn at their tool results and keeps raw argument text', () => {
    const events: StoredSessionEvent[] = [
      { type: 'user/message', turnId: turn, text: 'go' },
      { type: 'assistant/chunk', turnId: turn, kind: 'text', text: 'A' },
      { type: 'tool/call', turnId: turn, callId: 'c1', name: 'echo', arguments: '{bad' },
      {
        type: 'tool/result',
        turnId: turn,
        callId: 'c1',
        name: 'echo',
        content: [{ type: 'text', text: 'Error: not JSON' }],
        isError: true,
      },
      { type: 'assistant/chunk', turnId: turn, kind: 'text', text: 'B' },
      { type: 'turn/end', turnId: turn, reason: 'completed' },
    ]
    expect(historyOf(events)).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'A',
        toolCalls: [{ id: 'c1', name: 'echo', arguments: '{bad' }],
      },
      { role: 'tool', toolCallId: 'c1', content: 'Error: not JSON', isError: true },
      { role: 'assistant', content: 'B' },
    ])
  })
})

describe('notes', () => {
  it("a note joins the conversation before the next request, and a restored session's too", async () => {
    const store = new MemorySessionStore()
    const script = {
      turns: [
        { text: 'Echoing.', toolCalls: [echoCall('c1', 'hi')] },
        { text: 'Done.' },
        { text: 'Again.' },
      ],
    }
    const host = await echoHost({ script, store })
    const agent = host.agents.create({ cwd: host.dir })
    const unsubscribe = agent.subscribe((event) => {
      if (event.type === 'tool/result') agent.note('A background task finished.')
    })
    await agent.send('echo hi')
    unsubscribe()
    const [first, second] = host.requests()
    const note = { role: 'user', content: 'A background task finished.' }
    expect(first!.messages).not.toContainEqual(note)
    expect(second!.messages.at(-1)).toEqual(note)
    expect(second!.messages.at(-2)).toMatchObject({ role: 'tool', toolCallId: 'c1' })
    const id = agent.session.header.id
    await agent.dispose()
    const restored = host.agents.restore(id)
    await restored.send('again')
    expect(host.requests()[2]!.messages).toContainEqual(note)
  })
})
