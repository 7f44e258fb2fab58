// The bin's ACP stream over stdio. Incoming lines go through the SDK's ndjson reader (which
// answers a line that is not JSON itself). Outgoing messages are written straight to stdout as
// JSON lines (the SDK's own writer passes each through two more web streams), and updates that
// follow one another closely share a write: a tool call sends two or three, and every write to
// a pipe wakes the reading process, which on a busy machine costs more than the update itself.
import * as acp from '@agentclientprotocol/sdk'

/** An update written less than this many ms after the last write waits out the rest of it. */
export const COALESCE_MS = 1

/** What the stream needs of stdout (a Node writable). */
export interface LineSink {
  write(data: string | Uint8Array): boolean
  once(event: 'drain', listener: () => void): unknown
}

export interface StdioStream {
  stream: acp.Stream
  /** Writes one message of the bin's own (an answer the connection never saw), after any waiting. */
  send(message: object): void
  /** Writes every line still waiting; call it before the process exits. */
  flush(): void
}

/** The stream of one ACP connection: `input`'s lines in, messages out to `sink` as lines. */
export function stdioStream(
  input: ReadableStream<Uint8Array>,
  sink: LineSink,
  options: { maxMessageBytes: number },
): StdioStream {
  const lines = new LineWriter(sink)
  // The reader's own answers (a parse error) go out at once, after anything waiting.
  const answers = new WritableStream<Uint8Array>({
    write: (chunk) => lines.now(Buffer.from(chunk).toString('utf8')),
  })
  const { readable } = acp.ndJsonStream(answers, input, options)
  const writable = new WritableStream<acp.AnyMessage>({
    write: (message) => {
      const line = `${JSON.stringify(message)}\n`
      // A request or a response is waited on: it goes out now. An update may wait a little.
      return 'method' in message && !('id' in message) ? lines.soon(line) : lines.now(line)
    },
  })
  return {
    stream: { readable, writable },
    send: (message) => void lines.now(`${JSON.stringify(message)}\n`),
    flush: () => void lines.flush(),
  }
}

/** Lines to a sink, in order; `soon` lines written within COALESCE_MS of a write go together. */
export class LineWriter {
  private waiting: string[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private lastWrite = -Infinity

  /** `clock`: milliseconds, for `soon`'s decisions (tests pass their own). */
  constructor(
    private readonly sink: LineSink,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Writes `line` after everything waiting; resolves once the sink takes more. */
  now(line: string): Promise<void> {
    this.waiting.push(line)
    return this.flush()
  }

  /** Writes `line` now, unless the last write was less than COALESCE_MS ago: then with the next. */
  soon(line: string): Promise<void> {
    this.waiting.push(line)
    if (this.timer !== undefined) return Promise.resolve()
    const since = this.clock() - this.lastWrite
    if (since >= COALESCE_MS) return this.flush()
    this.timer = setTimeout(() => void this.flush(), COALESCE_MS - since)
    return Promise.resolve()
  }

  /** Writes every line waiting, in one write; resolves once the sink takes more. */
  flush(): Promise<void> {
    clearTimeout(this.timer)
    this.timer = undefined
    const data = this.waiting.join('')
    this.waiting = []
    if (data === '') return Promise.resolve()
    this.lastWrite = this.clock()
    if (this.sink.write(data)) return Promise.resolve()
    return new Promise((resolve) => this.sink.once('drain', resolve))
  }
}
