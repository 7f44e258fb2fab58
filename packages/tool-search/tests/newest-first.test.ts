// glob's window of the newest files, on the real disk: ties by path whatever order the paths
// come in, a file gone before its stat sorts last without failing the call, the cap.
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mtimeOf, NewestFirst } from '../src/newest-first'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-newest-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

/** Writes `name` with the modification time `seconds` (since the epoch). */
async function file(name: string, seconds: number): Promise<void> {
  await writeFile(join(dir, name), name)
  await utimes(join(dir, name), seconds, seconds)
}

function kept(window: NewestFirst): string[] {
  return window.sorted().map((found) => found.path)
}

describe('the newest files of a listing', () => {
  it('orders by time, newest first, and equal times by path in any arrival order', async () => {
    await file('old.txt', 1_000)
    await file('b.txt', 2_000)
    await file('a.txt', 2_000)
    await file('a-b.txt', 2_000)
    await file('new.txt', 3_000)
    const orders = [
      ['old.txt', 'b.txt', 'a.txt', 'a-b.txt', 'new.txt'],
      ['new.txt', 'a-b.txt', 'a.txt', 'b.txt', 'old.txt'],
      ['a.txt', 'old.txt', 'new.txt', 'b.txt', 'a-b.txt'],
    ]
    for (const order of orders) {
      const window = new NewestFirst(dir, 10)
      window.takeAll(order)
      expect(kept(window)).toEqual(['new.txt', 'a-b.txt', 'a.txt', 'b.txt', 'old.txt'])
    }
  })

  it('keeps only the newest `limit`, ties at the edge decided by path', async () => {
    for (const name of ['c.txt', 'a.txt', 'b.txt', 'd.txt']) await file(name, 5_000)
    await file('newest.txt', 9_000)
    const window = new NewestFirst(dir, 3)
    window.takeAll(['d.txt', 'c.txt', 'newest.txt', 'b.txt', 'a.txt'])
    expect(kept(window)).toEqual(['newest.txt', 'a.txt', 'b.txt'])
  })

  it('a file deleted between the listing and the stat sorts last; the rest stand', async () => {
    await file('here.txt', 1_000)
    await file('gone.txt', 2_000)
    await rm(join(dir, 'gone.txt'))
    const window = new NewestFirst(dir, 10)
    window.takeAll(['gone.txt'])
    window.takeAll(['here.txt'])
    expect(window.sorted()).toEqual([
      { path: 'here.txt', mtime: 1_000_000 },
      { path: 'gone.txt', mtime: 0 },
    ])
  })

  it('takes absolute paths as they are, and a path through a file as not there', async () => {
    await file('x.txt', 4_000)
    expect(mtimeOf('/nowhere', join(dir, 'x.txt'))).toBe(4_000_000)
    expect(mtimeOf(dir, 'x.txt/below')).toBe(0)
  })
})
