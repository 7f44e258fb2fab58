// A long session read in slices: the same session as `open` reads, and other work runs while
// its log is parsed (a load of a long session does not hold the process).
import { describe, expect, it } from 'vitest'
import { LOG_SLICE_LINES } from '../src/log'
import { everyEvent, sessionHeader, tempStore } from './helpers/store'

describe('reading in slices', () => {
  it('reads what open reads while other work runs between the slices', async () => {
    const { store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    let count = 0
    for (let turn = 0; count < LOG_SLICE_LINES * 10; turn++)
      for (const event of everyEvent(`t${turn}`)) {
        writer.append(event)
        count++
      }
    writer.close()
    const whole = store.open('s1')
    whole.writer.close()
    let ran = 0
    const tick = (): void => {
      ran++
      if (!done) setImmediate(tick)
    }
    let done = false
    setImmediate(tick)
    const sliced = await store.openInSlices('s1')
    done = true
    expect(sliced.events).toEqual(whole.events)
    expect(sliced.header).toEqual(whole.header)
    expect(ran).toBeGreaterThanOrEqual(9)
    // Taken for writing as `open` takes it: a second open is refused until it is closed.
    expect(() => store.open('s1')).toThrow(/open already/)
    sliced.writer.close()
    store.open('s1').writer.close()
  })

  it('a log that is not a session fails as open fails and leaves no lock', async () => {
    const { store, dir } = await tempStore()
    store.create(sessionHeader('s2')).close()
    const { writeFileSync } = await import('node:fs')
    const { join } = await import('node:path')
    writeFileSync(join(dir, 's2.jsonl'), 'not a log\n')
    await expect(store.openInSlices('s2')).rejects.toThrow(/first line/)
    expect(() => store.open('s2')).toThrow(/first line/)
  })
})
