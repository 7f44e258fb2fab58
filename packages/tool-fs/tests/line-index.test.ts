import { describe, expect, it } from 'vitest'
import { LineIndex, LineIndexCache } from '../src/line-index'

describe('the sparse line index', () => {
  it('answers line 1 at byte 0 before anything is recorded', () => {
    const index = new LineIndex('v1', { every: 10 })
    expect(index.nearest(1)).toEqual({ line: 1, byte: 0 })
    expect(index.nearest(500)).toEqual({ line: 1, byte: 0 })
  })

  it('gives the closest recorded start at or before a line', () => {
    const index = new LineIndex('v1', { every: 10 })
    index.record(11, 100)
    index.record(21, 230)
    expect(index.nearest(10)).toEqual({ line: 1, byte: 0 })
    expect(index.nearest(11)).toEqual({ line: 11, byte: 100 })
    expect(index.nearest(29)).toEqual({ line: 21, byte: 230 })
    expect(index.nearest(1000)).toEqual({ line: 21, byte: 230 })
  })

  it('keeps only the next start in sequence', () => {
    const index = new LineIndex('v1', { every: 10 })
    index.record(21, 230)
    index.record(12, 120)
    expect(index.size).toBe(1)
    index.record(11, 100)
    index.record(11, 999)
    expect(index.size).toBe(2)
    expect(index.nearest(15)).toEqual({ line: 11, byte: 100 })
  })

  it('halves itself and doubles its stride when it grows past its bound', () => {
    const index = new LineIndex('v1', { every: 2, maxEntries: 4 })
    for (let line = 3; line <= 11; line += 2) index.record(line, line * 10)
    expect(index.every).toBe(4)
    expect(index.size).toBeLessThanOrEqual(4)
    expect(index.nearest(10)).toEqual({ line: 9, byte: 90 })
    index.record(13, 130)
    expect(index.nearest(14)).toEqual({ line: 13, byte: 130 })
  })
})

describe('the index cache', () => {
  it('returns the same index for the same version and a fresh one when it changes', () => {
    const cache = new LineIndexCache({ every: 10 })
    const first = cache.get('k', 'v1')
    first.record(11, 100)
    first.totalLines = 40
    expect(cache.get('k', 'v1')).toBe(first)
    const second = cache.get('k', 'v2')
    expect(second).not.toBe(first)
    expect(second.totalLines).toBeUndefined()
    expect(second.nearest(20)).toEqual({ line: 1, byte: 0 })
  })

  it('drops the least recently used file past its bound', () => {
    const cache = new LineIndexCache({ maxFiles: 2 })
    cache.get('a', 'v')
    cache.get('b', 'v')
    cache.get('a', 'v')
    cache.get('c', 'v')
    expect(cache.size).toBe(2)
    expect(cache.peek('b')).toBeUndefined()
    expect(cache.peek('a')?.version).toBe('v')
  })

  it('forgets everything when cleared', () => {
    const cache = new LineIndexCache()
    cache.get('a', 'v')
    cache.clear()
    expect(cache.size).toBe(0)
  })
})
