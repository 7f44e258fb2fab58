// The newest files of a listing, stat'ed in parallel as they are taken: on a real folder of
// more files than the stats in flight and the queue hold together (so some are stat'ed at
// once), taken in a shuffled order, the window is exactly the newest by time, ties by path,
// and a file gone before its stat sorts last.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NewestFirst } from '../src/newest'

const COUNT = 5000
let dir: string
const names: string[] = []

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dsh-newest-'))
  const base = Date.UTC(2024, 0, 1) / 1000
  for (let i = 0; i < COUNT; i++) {
    const name = `f${String(i).padStart(4, '0')}`
    writeFileSync(join(dir, name), '')
    // Times rise with i, two files a second: pairs share a time and sort by path.
    const time = base + Math.floor(i / 2)
    utimesSync(join(dir, name), time, time)
    names.push(name)
  }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

describe('NewestFirst', () => {
  it('keeps the newest, ties by path, whatever order the paths come in', async () => {
    const newest = new NewestFirst(dir, 100)
    for (const name of shuffled(names, 7)) newest.take(name)
    const kept = (await newest.sorted()).map((found) => found.path)
    const expected: string[] = []
    for (let pair = COUNT / 2 - 1; expected.length < 100; pair--) {
      expected.push(names[pair * 2]!, names[pair * 2 + 1]!)
    }
    expect(kept).toEqual(expected)
  })

  it('sorts a file that is gone before its stat last', async () => {
    const newest = new NewestFirst(dir, 3)
    for (const name of ['missing', names[0]!, names[COUNT - 1]!]) newest.take(name)
    expect((await newest.sorted()).map((found) => found.path)).toEqual([
      names[COUNT - 1],
      names[0],
      'missing',
    ])
  })

  it('answers at once when nothing was taken', async () => {
    expect(await new NewestFirst(dir, 100).sorted()).toEqual([])
  })
})
