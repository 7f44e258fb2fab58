// The change a write's card shows: small texts whole, a new file's first lines, one hunk with
// three lines of context for large texts, the first changed line — and a huge text compared
// without holding the event loop.
import { describe, expect, it } from 'vitest'
import { countLines, textChange } from '../src/text-change'

const lines = (n: number, change?: number) =>
  Array.from({ length: n }, (_, i) => (i + 1 === change ? 'CHANGED' : `line ${i + 1}`)).join('\n')

describe('the change shown', () => {
  it('shows one hunk with three lines of context instead of the whole file', async () => {
    const context = (middle: string) =>
      ['line 497', 'line 498', 'line 499', middle, 'line 501', 'line 502', 'line 503'].join('\n')
    expect(await textChange(lines(1000), lines(1000, 500))).toEqual({
      oldText: context('line 500'),
      newText: context('CHANGED'),
      line: 500,
    })
  })

  it('shows lines added in the middle of a large file with the lines around them', async () => {
    const before = `${lines(1000)}\n`
    const after = before.replace('line 10\n', 'line 10\nnew a\nnew b\n')
    const change = await textChange(before, after)
    expect(change.line).toBe(11)
    expect(change.oldText).toBe('line 8\nline 9\nline 10\nline 11\nline 12\nline 13\nline 14')
    expect(change.newText).toBe(
      'line 8\nline 9\nline 10\nnew a\nnew b\nline 11\nline 12\nline 13\nline 14',
    )
  })

  it('shows the first 400 lines of a large created file', async () => {
    const change = await textChange(null, `${lines(1000)}\n`)
    expect(change.oldText).toBeNull()
    expect(change.newText.split('\n').length).toBe(401)
    expect(change.line).toBe(1)
  })

  it('shows small files whole, at the first changed line', async () => {
    expect(await textChange('a\nb', 'a\nc')).toEqual({ oldText: 'a\nb', newText: 'a\nc', line: 2 })
  })

  it('shows a large unchanged file as its first lines, the same on both sides', async () => {
    const text = lines(1000)
    expect(await textChange(text, text)).toEqual({
      oldText: 'line 1\nline 2\nline 3\n',
      newText: 'line 1\nline 2\nline 3\n',
      line: 1,
    })
  })
})

describe('huge texts', () => {
  it('a change in the middle of 60 MB is found, yielding to the event loop slice by slice', async () => {
    // Flat strings, as a parsed JSON argument and a decoded file are (not ropes of concats).
    const flat = (text: string) => Buffer.from(text).toString()
    const half = 'x'.repeat(99).concat('\n').repeat(300_000)
    const before = flat(`${half}old\n${half}`)
    const after = flat(`${half}new\n${half}`)
    // Counts the event loop's turns while the work runs: work that never yields counts none.
    // (Turns, not milliseconds: a busy machine stretches time, not the number of slices.)
    let turns = 0
    let running = true
    const spin = (): void => {
      if (!running) return
      turns += 1
      setImmediate(spin)
    }
    setImmediate(spin)
    const change = await textChange(before, after)
    const total = await countLines(after)
    running = false
    expect(change.line).toBe(300_001)
    const line = `${'x'.repeat(99)}\n`
    expect(change.oldText).toBe(`${line.repeat(3)}old\n${line.repeat(2)}${'x'.repeat(99)}`)
    expect(change.newText).toBe(change.oldText?.replace('old', 'new'))
    expect(total).toBe(600_001)
    // 60 M characters in 1 Mi slices: about 57 slices a pass, two passes.
    expect(turns).toBeGreaterThanOrEqual(57)
  })
})
