import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { StoredSessionEvent } from '@deepseek-ai/dsh-agent'
import { describe, expect, it } from 'vitest'
import { HEADER_FORMAT, LOG_FORMAT } from '../src/index'
import { expectAgentError } from './helpers/errors'
import { everyEvent, sessionHeader, tempStore } from './helpers/store'

describe('round trip', () => {
  it('a session reads back with the header saved last and every event in order', async () => {
    const { store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    const events = [...everyEvent('t1'), ...everyEvent('t2')]
    for (const event of events) writer.append(event)
    const saved = sessionHeader('s1', {
      mode: 'ask',
      model: 'deepseek-reasoner',
      title: 'fix the test',
      roots: ['/work/project', '/work/lib'],
      updatedAt: '2026-01-02T04:00:00.000Z',
    })
    writer.saveHeader(saved)
    writer.sync()
    writer.close()

    const session = store.open('s1')
    expect(session.header).toEqual(saved)
    expect(session.events).toEqual(events)
    session.writer.close()
    expect(store.list().sessions).toEqual([
      { id: 's1', cwd: '/work/project', title: 'fix the test', updatedAt: saved.updatedAt },
    ])
  })

  it('appends after a reopen follow the events stored before', async () => {
    const { store } = await tempStore()
    const first = store.create(sessionHeader('s1'))
    first.append({ type: 'turn/start', turnId: 't1' })
    first.close()
    const reopened = store.open('s1')
    reopened.writer.append({ type: 'turn/end', turnId: 't1', reason: 'completed' })
    reopened.writer.close()
    expect(store.open('s1').events.map((event) => event.type)).toEqual(['turn/start', 'turn/end'])
  })

  it('the files are a marked header, a marked log with one event per line, and private', async () => {
    const { dir, store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    writer.append({ type: 'turn/start', turnId: 't1' })
    writer.close()
    const header = JSON.parse(readFileSync(join(dir, 's1.json'), 'utf8')) as { format: string }
    expect(header.format).toBe(HEADER_FORMAT)
    expect(readFileSync(join(dir, 's1.jsonl'), 'utf8')).toBe(
      `{"format":"${LOG_FORMAT}","id":"s1"}\n{"type":"turn/start","turnId":"t1"}\n`,
    )
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, 's1.json')).mode & 0o077).toBe(0)
    expect(statSync(join(dir, 's1.jsonl')).mode & 0o077).toBe(0)
  })
})

describe('writer', () => {
  it('a tool result is stored without its details', async () => {
    const { store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    const result = {
      type: 'tool/result',
      turnId: 't1',
      callId: 'c1',
      name: 'read',
      content: [{ type: 'text', text: 'ok' }],
      isError: false,
      details: { bytes: 2 },
    } as StoredSessionEvent
    writer.append(result)
    writer.close()
    const [stored] = store.open('s1').events
    expect(stored).not.toHaveProperty('details')
    expect(stored).toMatchObject({ type: 'tool/result', callId: 'c1' })
  })

  it('closing twice is a no-op and sync after close does nothing', async () => {
    const { dir, store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    writer.close()
    writer.close()
    writer.sync()
    expect(() => statSync(join(dir, 's1.lock'))).toThrow(/ENOENT/)
  })

  it('an append or a header save after close fails with AGENT_STORE_IO saying it is closed', async () => {
    const { store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    writer.close()
    expectAgentError(
      () => writer.append({ type: 'turn/start', turnId: 't1' }),
      'AGENT_STORE_IO',
      /session s1: its writer is closed/,
    )
    expectAgentError(() => writer.saveHeader(sessionHeader('s1')), 'AGENT_STORE_IO', /closed/)
    expect(store.open('s1').events).toEqual([])
  })

  it('a header of another session is refused by saveHeader', async () => {
    const { store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    expect(() => writer.saveHeader(sessionHeader('s2'))).toThrow(TypeError)
    writer.close()
  })
})

describe('create', () => {
  it('an id that exists is refused with AGENT_STORE_IO naming EEXIST, and the session is kept', async () => {
    const { store } = await tempStore()
    const writer = store.create(sessionHeader('s1', { title: 'kept' }))
    writer.append({ type: 'turn/start', turnId: 't1' })
    writer.close()
    expectAgentError(
      () => store.create(sessionHeader('s1')),
      'AGENT_STORE_IO',
      /s1\.json exists already \(EEXIST\)/,
    )
    const session = store.open('s1')
    expect(session.header.title).toBe('kept')
    expect(session.events).toHaveLength(1)
    session.writer.close()
  })

  it('a path-like id is refused before anything is written', async () => {
    const { dir, store } = await tempStore()
    expect(() => store.create(sessionHeader('../escape'))).toThrow(TypeError)
    expect(() => statSync(dir)).toThrow(/ENOENT/)
  })
})
