// The frames of one ACP connection as a test sees them. FrameRecorder turns the bytes each side
// writes into ndjson frames (parsed when they are JSON), and labels a response with the method
// of the request it answers, so it can be checked against the right schema definition — it taps
// any transport: in-memory pipes (FramePipes, below) or a child process's stdio. FramePipes are
// the byte pipes between a client and the bridge in one process, with a recorder on both.
// Test support only; not a transport for real use.

export type AcpSide = 'agent' | 'client'

export interface AcpFrame {
  /** Which side wrote it. */
  from: AcpSide
  /** The line as written, without its newline. */
  text: string
  /** The parsed JSON, or undefined when the line is not JSON. */
  message: unknown
  /** A request's or notification's method; for a response, the method of its request. */
  method?: string
  /** True for bytes written with `writeRaw` (a misbehaving client). */
  raw: boolean
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

interface FrameWaiter {
  match: (frame: AcpFrame) => boolean
  resolve: (frame: AcpFrame) => void
}

export class FrameRecorder {
  readonly frames: AcpFrame[] = []
  private readonly partial = { agent: '', client: '' }
  private readonly decoders = { agent: new TextDecoder(), client: new TextDecoder() }
  /** Request id (JSON text) → method, per side that sent the request. */
  private readonly requests = {
    agent: new Map<string, string>(),
    client: new Map<string, string>(),
  }
  private readonly waiters = new Set<FrameWaiter>()

  /** Records what `from` wrote: whole lines become frames, a partial line waits for its end. */
  tap(from: AcpSide, chunk: Uint8Array | string, raw = false): void {
    const decoded =
      typeof chunk === 'string' ? chunk : this.decoders[from].decode(chunk, { stream: true })
    const lines = (this.partial[from] + decoded).split('\n')
    this.partial[from] = lines.pop() ?? ''
    for (const line of lines) if (line.trim().length > 0) this.record(from, line, raw)
  }

  /** Everything `from` wrote so far, as text (whole lines and the partial one). */
  text(from: AcpSide): string {
    const lines = this.frames.filter((frame) => frame.from === from).map((f) => `${f.text}\n`)
    return lines.join('') + this.partial[from]
  }

  /** Resolves with the first frame (already recorded or coming) that matches. */
  waitFor(match: (frame: AcpFrame) => boolean): Promise<AcpFrame> {
    const found = this.frames.find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve) => this.waiters.add({ match, resolve }))
  }

  private record(from: AcpSide, text: string, raw: boolean): void {
    let message: unknown
    try {
      message = JSON.parse(text)
    } catch {
      // Not JSON (a malformed frame on purpose): kept as text, with no message.
      message = undefined
    }
    const frame: AcpFrame = { from, text, message, raw }
    const fields = recordOf(message)
    if (fields && typeof fields.method === 'string') {
      frame.method = fields.method
      if ('id' in fields) this.requests[from].set(JSON.stringify(fields.id), fields.method)
    } else if (fields && 'id' in fields) {
      const answered = from === 'agent' ? this.requests.client : this.requests.agent
      frame.method = answered.get(JSON.stringify(fields.id))
    }
    this.frames.push(frame)
    for (const waiter of this.waiters) {
      if (!waiter.match(frame)) continue
      this.waiters.delete(waiter)
      waiter.resolve(frame)
    }
  }
}

interface Pipe {
  readable: ReadableStream<Uint8Array>
  enqueue(bytes: Uint8Array): void
  close(): void
}

function createPipe(): Pipe {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined
  let closed = false
  const readable = new ReadableStream<Uint8Array>({
    start: (start) => {
      controller = start
    },
    // The reader went away (its connection closed): later bytes have nowhere to go.
    cancel: () => {
      closed = true
    },
  })
  return {
    readable,
    enqueue: (bytes) => {
      if (!closed) controller?.enqueue(bytes)
    },
    close: () => {
      if (closed) return
      closed = true
      controller?.close()
    },
  }
}

/** In-memory byte pipes between a client and the bridge, recording every frame either writes. */
export class FramePipes {
  readonly recorder = new FrameRecorder()
  readonly agentInput: ReadableStream<Uint8Array>
  readonly clientInput: ReadableStream<Uint8Array>
  readonly agentOutput: WritableStream<Uint8Array>
  readonly clientOutput: WritableStream<Uint8Array>
  private readonly toAgent = createPipe()
  private readonly toClient = createPipe()

  constructor() {
    this.agentInput = this.toAgent.readable
    this.clientInput = this.toClient.readable
    this.agentOutput = this.pipeInto(this.toClient, 'agent')
    this.clientOutput = this.pipeInto(this.toAgent, 'client')
  }

  get frames(): AcpFrame[] {
    return this.recorder.frames
  }

  /** Bytes into the bridge's input, bypassing the client. */
  writeRaw(text: string): void {
    const bytes = new TextEncoder().encode(text)
    this.recorder.tap('client', bytes, true)
    this.toAgent.enqueue(bytes)
  }

  /** EOF on both directions: the client is gone. */
  endClientOutput(): void {
    this.toAgent.close()
    this.toClient.close()
  }

  private pipeInto(pipe: Pipe, from: AcpSide): WritableStream<Uint8Array> {
    return new WritableStream<Uint8Array>({
      write: (chunk) => {
        this.recorder.tap(from, chunk)
        pipe.enqueue(chunk)
      },
      close: () => pipe.close(),
    })
  }
}
