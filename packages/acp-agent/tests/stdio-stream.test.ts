import { describe, expect, it } from 'vitest'
import { COALESCE_MS, LineWriter, stdioStream } from '../src/start/stdio-stream'
import type { LineSink } from '../src/start/stdio-stream'

/** A sink that records each write; `full` makes it report full until `drain()`. */
class RecordingSink implements LineSink {
  readonly writes: string[] = []
  full = false
  private onDrain: (() => void) | undefined

  write(data: string | Uint8Array): boolean {
    this.writes.push(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'))
    return !this.full
  }

  once(_event: 'drain', listener: () => void): this {
    this.onDrain = listener
    return this
  }

  drain(): void {
    this.full = false
    this.onDrain?.()
  }
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `done()` holds (the timer that sends waiting updates has fired). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 2000) throw new Error('timed out waiting')
    await later(5)
  }
}

/** A clock the test moves: `soon` decides by it alone. */
function manualClock() {
  const clock = { time: 1000, now: () => clock.time }
  return clock
}

describe('the line writer', () => {
  it('writes a lone update at once', async () => {
    const sink = new RecordingSink()
    await new LineWriter(sink).soon('a\n')
    expect(sink.writes).toEqual(['a\n'])
  })

  it('holds updates that follow a write closely and sends them together, in order', async () => {
    const sink = new RecordingSink()
    const clock = manualClock()
    const lines = new LineWriter(sink, clock.now)
    await lines.soon('a\n')
    clock.time += COALESCE_MS / 2
    await lines.soon('b\n')
    await lines.soon('c\n')
    expect(sink.writes).toEqual(['a\n'])
    await until(() => sink.writes.length === 2)
    expect(sink.writes).toEqual(['a\n', 'b\nc\n'])
  })

  it('writes an update at once when the last write is older than the window', async () => {
    const sink = new RecordingSink()
    const clock = manualClock()
    const lines = new LineWriter(sink, clock.now)
    await lines.soon('a\n')
    clock.time += COALESCE_MS
    await lines.soon('b\n')
    expect(sink.writes).toEqual(['a\n', 'b\n'])
  })

  it('sends a request or response at once, after the updates waiting before it', async () => {
    const sink = new RecordingSink()
    const clock = manualClock()
    const lines = new LineWriter(sink, clock.now)
    await lines.soon('update 1\n')
    await lines.soon('update 2\n')
    await lines.now('response\n')
    expect(sink.writes).toEqual(['update 1\n', 'update 2\nresponse\n'])
    await later(COALESCE_MS + 20)
    expect(sink.writes).toHaveLength(2)
  })

  it('waits for a full sink to drain before it resolves', async () => {
    const sink = new RecordingSink()
    sink.full = true
    let done = false
    const written = new LineWriter(sink).now('big\n').then(() => (done = true))
    await later(5)
    expect(done).toBe(false)
    sink.drain()
    await written
    expect(done).toBe(true)
  })
})

describe('the stdio stream', () => {
  it('writes messages as JSON lines and flushes what waits', async () => {
    const sink = new RecordingSink()
    const input = new ReadableStream<Uint8Array>()
    const { stream, flush } = stdioStream(input, sink, { maxMessageBytes: 1024 })
    const writer = stream.writable.getWriter()
    const update = { jsonrpc: '2.0' as const, method: 'session/update', params: { n: 1 } }
    await writer.write({ jsonrpc: '2.0', id: 1, result: {} })
    await writer.write(update)
    flush()
    // Whether the update waited or not, both lines are out, whole and in order.
    expect(sink.writes.join('')).toBe(
      `{"jsonrpc":"2.0","id":1,"result":{}}\n${JSON.stringify(update)}\n`,
    )
  })

  it('answers a line that is not JSON with a parse error through the same sink', async () => {
    const sink = new RecordingSink()
    const bytes = new TextEncoder().encode('not json\n')
    const input = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes)
        controller.close()
      },
    })
    const { stream } = stdioStream(input, sink, { maxMessageBytes: 1024 })
    const reader = stream.readable.getReader()
    expect((await reader.read()).done).toBe(true)
    const [line] = sink.writes
    expect(JSON.parse(line ?? '')).toMatchObject({ id: null, error: { code: -32700 } })
  })
})
