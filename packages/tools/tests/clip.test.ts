// Clipping long strings for display and storage: the head and the count of what was cut, at
// any depth, idempotent, a surrogate pair never split, and nothing copied when nothing is long.
import { describe, expect, it } from 'vitest'
import { clipLongString, clipLongStrings, LONG_STRING_CHARS } from '../src/index'

const MARKER = /^([\s\S]*)… \((\d+) more characters\)$/

describe('one string', () => {
  it('a string of the limit is kept whole', () => {
    const text = 'x'.repeat(LONG_STRING_CHARS)
    expect(clipLongString(text)).toBe(text)
  })

  it('a longer string becomes its head and the number of characters cut, within the limit', () => {
    const text = 'y'.repeat(LONG_STRING_CHARS + 1)
    const clipped = clipLongString(text)
    expect(clipped.length).toBeLessThanOrEqual(LONG_STRING_CHARS)
    const [, head = '', more = ''] = MARKER.exec(clipped) ?? []
    expect(text.startsWith(head)).toBe(true)
    expect(head.length).toBeGreaterThan(LONG_STRING_CHARS - 64)
    expect(head.length + Number(more)).toBe(text.length)
  })

  it('clipping a clipped string changes nothing', () => {
    const once = clipLongString('z'.repeat(10_000_000))
    expect(clipLongString(once)).toBe(once)
  })

  it('never ends the head inside a surrogate pair', () => {
    const text = '😀'.repeat(LONG_STRING_CHARS)
    const [, head = '', more = ''] = MARKER.exec(clipLongString(text)) ?? []
    expect(head.length % 2).toBe(0)
    expect(head.length + Number(more)).toBe(text.length)
  })
})

describe('a value', () => {
  it('clips long strings at any depth and leaves the given value unchanged', () => {
    const long = 'c'.repeat(200_000)
    const args = { file_path: 'a.txt', content: long, parts: [{ text: long }, 'short', 3, null] }
    const clipped = clipLongStrings(args)
    expect(clipped.file_path).toBe('a.txt')
    expect(clipped.content.length).toBeLessThanOrEqual(LONG_STRING_CHARS)
    expect(clipped.parts[0]).toEqual({ text: clipped.content })
    expect(clipped.parts.slice(1)).toEqual(['short', 3, null])
    expect(args.content).toBe(long)
    expect(args.parts[0]).toEqual({ text: long })
  })

  it('returns the same object when no string is long', () => {
    const args = { file_path: 'a.txt', nested: { list: ['a', 'b'], n: 1 } }
    expect(clipLongStrings(args)).toBe(args)
  })

  it('a container nested too deep for a person to read is shown as a note', () => {
    let deep: unknown = 'leaf'
    for (let i = 0; i < 10_000; i++) deep = [deep]
    const clipped = JSON.stringify(clipLongStrings(deep))
    expect(clipped).toContain('nested deeper than')
    expect(clipped.length).toBeLessThan(2_000)
  })
})
