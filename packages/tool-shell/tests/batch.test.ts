import { describe, expect, it } from 'vitest'
import { OutputBatcher } from '../src/batch'

describe('live output batches', () => {
  it('sends the first piece at once and the rest together after the interval', async () => {
    const sent: string[] = []
    const batcher = new OutputBatcher((text) => sent.push(text), 50)
    batcher.push('a')
    batcher.push('b')
    batcher.push('c')
    expect(sent).toEqual(['a'])
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(sent).toEqual(['a', 'bc'])
  })

  it('keeps the end of a flood and says how much it skipped', () => {
    const sent: string[] = []
    const batcher = new OutputBatcher((text) => sent.push(text), 1000, 10)
    batcher.push('first')
    for (let i = 0; i < 100; i++) batcher.push('0123456789')
    batcher.push('😀tail')
    batcher.flush()
    expect(sent[0]).toBe('first')
    expect(sent[1]).toBe('[… 996 characters skipped …]\n6789😀tail')
  })
})
