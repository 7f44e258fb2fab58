// The start's lean V8 flags: set before the bundle compiles, V8's usual ones back after the
// window, set again before a code cache is written, and never over flags node was given.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const flags: string[] = []
vi.mock('node:v8', () => ({ setFlagsFromString: (flag: string) => flags.push(flag) }))

const { LEAN_MS, flagsChosen, relean, startLean } = await import('../src/start/lean-start')

describe('the lean start', () => {
  beforeEach(() => {
    flags.length = 0
    vi.useFakeTimers()
  })
  afterEach(() => vi.useRealTimers())

  it('runs lean for its window, then with V8 usual flags', () => {
    expect(startLean()).toBe(true)
    expect(flags).toEqual(['--no-opt', '--semi-space-growth-factor=1'])
    vi.advanceTimersByTime(LEAN_MS - 1)
    expect(flags).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(flags.slice(2)).toEqual(['--opt', '--semi-space-growth-factor=2'])
  })

  it('sets the lean flags again for a code cache written after the window', () => {
    relean()
    expect(flags).toEqual(['--no-opt', '--semi-space-growth-factor=1'])
  })

  it('leaves the flags node was given on its command line or in NODE_OPTIONS', () => {
    expect(flagsChosen(['--max-semi-space-size=4'])).toBe(true)
    expect(flagsChosen(['--no-opt'])).toBe(true)
    expect(flagsChosen(['--turbofan'])).toBe(true)
    expect(flagsChosen([], '--semi-space-growth-factor=3 --enable-source-maps')).toBe(true)
    expect(flagsChosen(['--enable-source-maps'], '--max-old-space-size=512')).toBe(false)
    expect(flagsChosen(['--optimize-for-size'])).toBe(false)
  })
})
