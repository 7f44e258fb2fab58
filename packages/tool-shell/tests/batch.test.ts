import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { OutputBatcher } from '../src/batch'

describe('live output batches', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('sends the first whole lines at once and the next together after the interval', () => {
    const sent: string[] = []
    const batcher = new OutputBatcher((text) => sent.push(text), { intervalMs: 50 })
    batcher.push('a\n')
    batcher.push('b\n')
    batcher.push('c\n')
    expect(sent).toEqual(['a\n'])
    vi.advanceTimersByTime(50)
    expect(sent).toEqual(['a\n', 'b\nc\n'])
  })

  it('holds the start of a line until its end comes, so quick output never splits a line', () => {
    const sent: string[] = []
    const batcher = new OutputBatcher((text) => sent.push(text), { intervalMs: 50, partialMs: 250 })
    batcher.push('ls: ')
    expect(sent).toEqual([])
    vi.advanceTimersByTime(30)
    batcher.push('cannot access x\nnext ')
    vi.advanceTimersByTime(60)
    expect(sent).toEqual(['ls: cannot access x\n'])
    batcher.push('line\n')
    vi.advanceTimersByTime(100)
    expect(sent).toEqual(['ls: cannot access x\n', 'next line\n'])
  })

  it('lets the start of a line through alone once it waited, as a prompt or a progress line', () => {
    const sent: string[] = []
    const batcher = new OutputBatcher((text) => sent.push(text), { intervalMs: 50, partialMs: 250 })
    batcher.push('Password: ')
    vi.advanceTimersByTime(249)
    expect(sent).toEqual([])
    vi.advanceTimersByTime(1)
    expect(sent).toEqual(['Password: '])
  })

  it('a carriage return ends a batch as a line end does', () => {
    const sent: string[] = []
    const batcher = new OutputBatcher((text) => sent.push(text), { intervalMs: 50, partialMs: 250 })
    batcher.push(' 10%\r 2')
    expect(sent).toEqual([' 10%\r'])
    batcher.flush()
    expect(sent).toEqual([' 10%\r', ' 2'])
  })

  it('keeps the end of a flood and says how much it skipped', () => {
    const sent: string[] = []
    const batcher = new OutputBatcher((text) => sent.push(text), { intervalMs: 1000, maxChars: 10 })
    batcher.push('first\n')
    for (let i = 0; i < 100; i++) batcher.push('0123456789')
    batcher.push('😀tail')
    batcher.flush()
    expect(sent[0]).toBe('first\n')
    expect(sent[1]).toBe('[… 996 characters skipped …]\n6789😀tail')
  })
})
