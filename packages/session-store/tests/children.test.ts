// Reading back the child sessions stored under a parent: oldest first with their events, a
// damaged one skipped with a warning, none for a session without children, and each session's
// children apart from its siblings' and its own children's.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { everyEvent, sessionHeader, tempStore } from './helpers/store'

describe('children', () => {
  it("reads a parent's children oldest first, with their events, apart from other sessions'", async () => {
    const { store, warnings } = await tempStore()
    store.create(sessionHeader('p')).close()
    store.create(sessionHeader('q')).close()
    const later = store.create(
      sessionHeader('c2', {
        parent: 'p',
        parentCallId: 't2',
        createdAt: '2026-01-02T03:05:00.000Z',
      }),
    )
    later.append({ type: 'turn/start', turnId: 'u2' })
    later.close()
    const earlier = store.create(
      sessionHeader('c1', { parent: 'p', parentCallId: 't1', title: 'look' }),
    )
    const events = everyEvent('u1')
    for (const event of events) earlier.append(event)
    earlier.close()
    store.create(sessionHeader('g1', { parent: 'c1' })).close()
    store.create(sessionHeader('x1', { parent: 'q' })).close()

    const children = store.children('p')
    expect(children.map((child) => [child.header.id, child.header.parentCallId])).toEqual([
      ['c1', 't1'],
      ['c2', 't2'],
    ])
    expect(children[0]!.header.title).toBe('look')
    expect(children[0]!.events).toEqual(events)
    expect(children[1]!.events).toEqual([{ type: 'turn/start', turnId: 'u2' }])
    expect(store.children('c1').map((child) => child.header.id)).toEqual(['g1'])
    expect(store.children('q').map((child) => child.header.id)).toEqual(['x1'])
    expect(store.children('x1')).toEqual([])
    expect(store.children('../p')).toEqual([])
    // Listing still shows only the top-level sessions.
    expect(
      store
        .list()
        .sessions.map((session) => session.id)
        .sort(),
    ).toEqual(['p', 'q'])
    expect(warnings).toEqual([])
  })

  it('skips a child whose log cannot be read, with a warning, and keeps the others', async () => {
    const { dir, store, warnings } = await tempStore()
    store.create(sessionHeader('p')).close()
    store.create(sessionHeader('c1', { parent: 'p' })).close()
    store.create(sessionHeader('c2', { parent: 'p' })).close()
    writeFileSync(join(dir, 'p.children', 'c1.jsonl'), 'not a log\n{"type":"turn/start"}\n')
    expect(store.children('p').map((child) => child.header.id)).toEqual(['c2'])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^Child session c1 of p was not shown: /)
  })
})
