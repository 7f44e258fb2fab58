// The per-file lock providers share: calls of one key run one at a time, in call order.
import { describe, expect, it } from 'vitest'
import { KeyedMutex } from '../src/mutex'

describe('keyed mutex', () => {
  it('runs work for one key in call order, one at a time', async () => {
    const mutex = new KeyedMutex()
    const log: string[] = []
    const step = (name: string, ms: number) =>
      mutex.run('k', async () => {
        log.push(`start ${name}`)
        await new Promise((resolve) => setTimeout(resolve, ms))
        log.push(`end ${name}`)
      })
    await Promise.all([step('a', 20), step('b', 0), step('c', 5)])
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
  })

  it('runs work for different keys side by side', async () => {
    const mutex = new KeyedMutex()
    const log: string[] = []
    let releaseA: () => void = () => {}
    const a = mutex.run('a', () => new Promise<void>((resolve) => (releaseA = resolve)))
    await mutex.run('b', async () => log.push('b ran while a waits'))
    releaseA()
    await a
    expect(log).toEqual(['b ran while a waits'])
  })

  it('goes on after a failed work and forgets idle keys', async () => {
    const mutex = new KeyedMutex()
    const failed = mutex.run('k', async () => {
      throw new Error('boom')
    })
    const next = mutex.run('k', async () => 'next')
    await expect(failed).rejects.toThrow('boom')
    expect(await next).toBe('next')
    expect(mutex.size).toBe(0)
  })
})
