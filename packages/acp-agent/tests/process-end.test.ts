// How the bin ends and logs, in process: every way an editor ends it ends it once, the deadline
// exits even when the release never settles, and a broken stderr silences the log for good.
import { EventEmitter } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { END_SIGNALS, ProcessEnd } from '../src/start/process-end'
import { StderrLog } from '../src/start/stderr-log'

afterEach(() => {
  vi.useRealTimers()
})

function sources() {
  return { stdin: new EventEmitter(), stdout: new EventEmitter(), signals: new EventEmitter() }
}

describe('the end of the process', () => {
  const ends: ['stdin' | 'stdout' | 'signals', string][] = [
    ['stdin', 'end'],
    ['stdin', 'close'],
    ['stdin', 'error'],
    ['stdout', 'error'],
    ...END_SIGNALS.map((signal): ['signals', string] => ['signals', signal]),
  ]
  it.each(ends)('%s %s releases the stack once, flushes and exits 0', async (source, event) => {
    const exits: number[] = []
    const release = vi.fn(async () => undefined)
    const flush = vi.fn()
    const end = new ProcessEnd({
      release,
      flush,
      exit: (code) => exits.push(code),
      deadlineMs: 1000,
    })
    const watched = sources()
    end.watch(watched)
    watched[source].emit(event)
    watched.stdin.emit('end')
    await end.end()
    expect(release).toHaveBeenCalledTimes(1)
    expect(flush).toHaveBeenCalledTimes(1)
    expect(exits).toEqual([0])
  })

  it('exits at the deadline when the release never settles', async () => {
    vi.useFakeTimers()
    const exits: number[] = []
    const end = new ProcessEnd({
      release: () => new Promise(() => undefined),
      flush: () => undefined,
      exit: (code) => exits.push(code),
      deadlineMs: 1000,
    })
    void end.end()
    await vi.advanceTimersByTimeAsync(999)
    expect(exits).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(exits).toEqual([0])
  })
})

class FakeStderr extends EventEmitter {
  written: string[] = []
  throws = false
  write(text: string): boolean {
    if (this.throws) throw new Error('EPIPE')
    this.written.push(text)
    return true
  }
}

describe('the log on stderr', () => {
  it('writes lines until stderr fails, then nothing, and never raises', () => {
    const stderr = new FakeStderr()
    const log = new StderrLog(stderr)
    log.line('first')
    stderr.emit('error', new Error('write EPIPE'))
    log.line('second')
    log.error('uncaught exception', new Error('boom'))
    expect(stderr.written).toEqual(['first\n'])
    expect(log.isBroken).toBe(true)
  })

  it('a stderr that throws on write is as broken as one that emits an error', () => {
    const stderr = new FakeStderr()
    const log = new StderrLog(stderr)
    stderr.throws = true
    expect(() => log.line('lost')).not.toThrow()
    stderr.throws = false
    log.line('after')
    expect(stderr.written).toEqual([])
  })
})
