import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FileSessionStore } from '../src/index'
import { sessionHeader, tempStore } from './helpers/store'

/** Stores a closed session updated `minute` minutes past a fixed hour. */
function storeAt(store: FileSessionStore, id: string, minute: number, cwd = '/work/a'): void {
  const updatedAt = new Date(Date.UTC(2026, 0, 2, 3, minute)).toISOString()
  store.create(sessionHeader(id, { cwd, roots: [cwd], updatedAt })).close()
}

describe('list', () => {
  it('an empty or missing store lists no sessions', async () => {
    const { store } = await tempStore()
    expect(store.list()).toEqual({ sessions: [] })
  })

  it('sessions come newest first, ties by id, filtered by exact cwd', async () => {
    const { store } = await tempStore()
    storeAt(store, 'old', 1)
    storeAt(store, 'new', 9)
    storeAt(store, 'tie-b', 5)
    storeAt(store, 'tie-a', 5)
    storeAt(store, 'elsewhere', 7, '/work/b')
    storeAt(store, 'nested', 8, '/work/a/sub')
    expect(store.list().sessions.map((session) => session.id)).toEqual([
      'new',
      'nested',
      'elsewhere',
      'tie-a',
      'tie-b',
      'old',
    ])
    expect(store.list({ cwd: '/work/a' }).sessions.map((session) => session.id)).toEqual([
      'new',
      'tie-a',
      'tie-b',
      'old',
    ])
  })

  it('pages of three walk seven sessions with cursors, the last page without one', async () => {
    const { store } = await tempStore()
    for (let index = 0; index < 7; index++) storeAt(store, `s${index}`, index)
    const pages: string[][] = []
    let cursor: string | undefined
    do {
      const page = store.list({ limit: 3, cursor })
      pages.push(page.sessions.map((session) => session.id))
      cursor = page.nextCursor
    } while (cursor !== undefined)
    expect(pages).toEqual([['s6', 's5', 's4'], ['s3', 's2', 's1'], ['s0']])
  })

  it('a page that ends exactly at the last session has no cursor', async () => {
    const { store } = await tempStore()
    for (let index = 0; index < 3; index++) storeAt(store, `s${index}`, index)
    expect(store.list({ limit: 3 }).nextCursor).toBeUndefined()
    expect(store.list({ limit: 2 }).nextCursor).toEqual(expect.any(String))
  })

  it('foreign and corrupt files are skipped and reported once', async () => {
    const { dir, store, warnings } = await tempStore()
    storeAt(store, 'good', 1)
    writeFileSync(join(dir, 'notes.txt'), 'my notes')
    writeFileSync(join(dir, 'broken.json'), '{"format":"dsh-sess')
    writeFileSync(join(dir, 'foreign.json'), JSON.stringify(sessionHeader('foreign')))
    writeFileSync(
      join(dir, 'renamed.json'),
      JSON.stringify({ format: 'dsh-session/1', ...sessionHeader('x') }),
    )
    expect(store.list().sessions.map((session) => session.id)).toEqual(['good'])
    expect(store.list().sessions.map((session) => session.id)).toEqual(['good'])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('broken.json (it is not JSON)')
    expect(warnings[0]).toContain('foreign.json (it has no "format": "dsh-session/1" marker)')
    expect(warnings[0]).toContain('renamed.json (its id is "x", not "renamed")')
    expect(warnings[0]).not.toContain('notes.txt')
  })

  it('a malformed cursor or limit is a TypeError naming it', async () => {
    const { store } = await tempStore()
    expect(() => store.list({ cursor: 'not a cursor' })).toThrow(/Invalid session list cursor/)
    const notAPosition = Buffer.from('{"a":1}').toString('base64url')
    expect(() => store.list({ cursor: notAPosition })).toThrow(TypeError)
    expect(() => store.list({ limit: 0 })).toThrow(/Invalid session list limit 0/)
  })
})
