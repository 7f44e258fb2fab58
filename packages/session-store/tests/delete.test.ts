// Deleting a session: its files go, every other file of a 50-session store stays byte for
// byte, a second delete or an unknown id is not found, and a session a writer holds (here, or
// in another live process) is refused with the holder's pid.
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { startDriver } from './helpers/child/spawn'
import { expectAgentError } from './helpers/errors'
import { everyEvent, sessionHeader, tempStore } from './helpers/store'

/** Every file of the directory with a hash of its bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const name of readdirSync(dir).sort()) {
    files.set(
      name,
      createHash('sha256')
        .update(readFileSync(join(dir, name)))
        .digest('hex'),
    )
  }
  return files
}

describe('deleting a session', () => {
  it('removes only its own files from a store of 50 sessions', async () => {
    const { dir, store } = await tempStore()
    const ids = Array.from({ length: 50 }, (_, n) => `s${String(n).padStart(2, '0')}`)
    for (const [n, id] of ids.entries()) {
      const writer = store.create(
        sessionHeader(id, { updatedAt: `2026-01-02T03:04:${String(n).padStart(2, '0')}.000Z` }),
      )
      for (const event of everyEvent(`t-${id}`)) writer.append(event)
      writer.close()
    }
    // One session stays open, so a lock file is part of what must be left alone.
    const open = store.open('s07')
    const before = snapshot(dir)
    store.delete('s23')
    const after = snapshot(dir)
    const expected = new Map(before)
    expected.delete('s23.json')
    expected.delete('s23.jsonl')
    expect(after).toEqual(expected)
    expect(before.has('s23.json') && before.has('s23.jsonl')).toBe(true)
    const listed = store.list({ cwd: '/work/project', limit: 100 }).sessions.map((s) => s.id)
    expect(listed).toHaveLength(49)
    expect(listed).not.toContain('s23')
    expect(store.open('s24').events).toEqual(everyEvent('t-s24'))
    open.writer.close()
  })

  it('a second delete, or an unknown id, is AGENT_SESSION_NOT_FOUND', async () => {
    const { store } = await tempStore()
    store.create(sessionHeader('s1')).close()
    store.delete('s1')
    expectAgentError(() => store.delete('s1'), 'AGENT_SESSION_NOT_FOUND', /s1/)
    expectAgentError(() => store.delete('nope'), 'AGENT_SESSION_NOT_FOUND', /nope/)
    expectAgentError(() => store.open('s1'), 'AGENT_SESSION_NOT_FOUND')
  })

  it('a session open in this process is refused and left whole', async () => {
    const { dir, store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    const before = snapshot(dir)
    expectAgentError(() => store.delete('s1'), 'AGENT_SESSION_LOCKED', /open already/)
    expect(snapshot(dir)).toEqual(before)
    writer.close()
    store.delete('s1')
    expect(readdirSync(dir)).toEqual([])
  })

  it('a session another live process holds is refused, naming its pid', async () => {
    const { dir, store } = await tempStore()
    store.create(sessionHeader('s1')).close()
    const holder = await startDriver(inject('driver'), ['hold', dir, 's1'])
    try {
      const pid = holder.child.pid!
      expectAgentError(
        () => store.delete('s1'),
        'AGENT_SESSION_LOCKED',
        new RegExp(`process ${pid}`),
      )
      expect(readdirSync(dir).sort()).toEqual(['s1.json', 's1.jsonl', 's1.lock'])
    } finally {
      holder.child.stdin.end()
      await holder.closed
    }
    store.delete('s1')
    expect(readdirSync(dir)).toEqual([])
  })
})
