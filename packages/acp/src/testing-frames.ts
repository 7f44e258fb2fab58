// FrameLog: the in-memory byte pipes between the harness client and the bridge, with a tap
// that records every ndjson line each side writes (parsed when it is JSON). A response is
// labelled with the method of the request it answers, so a test can check it against the
// right schema definition. Raw writes (malformed frames) go into the bridge's input as is.
// Test support only; not a transport for real use.

export interface AcpFrame {
  /** Which side wrote it. */
  from: 'agent' | 'client'
  /** The line as written, without its newline. */
  text: string
  /** The parsed JSON, or undefined when the line is not JSON. */
  message: unknown
  /** A request's or notification's method; for a response, the method of its request. */
  method?: string
  /** True for bytes written with `writeRaw`. */
  raw: boolean
}

interface Pipe {
  readable: ReadableStream<Uint8Array>
  enqueue(bytes: Uint8Array): void
  close(): void
}

function createPipe(): Pipe {
  const state: { controller?: ReadableStreamDefaultController<Uint8Array>; closed: boolean } = {
    closed: false,
  }
  const readable = new ReadableStream<Uint8Array>({
    start: (controller) => {
      state.controller = controller
    },
    // The reader went away (its connection closed): later bytes have nowhere to go.
    cancel: () => {
      state.closed = true
    },
  })
  return {
    readable,
    enqueue: (bytes) => {
      if (!state.closed) state.controller?.enqueue(bytes)
    },
    close: () => {
      if (state.closed) return
      state.closed = true
      state.controller?.close()
    },
  }
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

export class FrameLog {
  readonly frames: AcpFrame[] = []
  readonly agentInput: ReadableStream<Uint8Array>
  readonly clientInput: ReadableStream<Uint8Array>
  readonly agentOutput: WritableStream<Uint8Array>
  readonly clientOutput: WritableStream<Uint8Array>
  private readonly toAgent = createPipe()
  private readonly toClient = createPipe()
  private readonly pending = { agent: '', client: '' }
  /** Request id (JSON text) → method, per side that sent the request. */
  private readonly requests = {
    agent: new Map<string, string>(),
    client: new Map<string, string>(),
  }
  private readonly waiters = new Set<{
    match: (f: AcpFrame) => boolean
    resolve: (f: AcpFrame) => void
  }>()
  private readonly decoder = { agent: new TextDecoder(), client: new TextDecoder() }

  constructor() {
    this.agentInput = this.toAgent.readable
    this.clientInput = this.toClient.readable
    this.agentOutput = new WritableStream<Uint8Array>({
      write: (chunk) => {
        this.tap('agent', chunk, false)
        this.toClient.enqueue(chunk)
      },
      close: () => this.toClient.close(),
    })
    this.clientOutput = new WritableStream<Uint8Array>({
      write: (chunk) => {
        this.tap('client', chunk, false)
        this.toAgent.enqueue(chunk)
      },
      close: () => this.toAgent.close(),
    })
  }

  /** Bytes into the bridge's input, bypassing the SDK client. */
  writeRaw(text: string): void {
    const bytes = new TextEncoder().encode(text)
    this.tap('client', bytes, true)
    this.toAgent.enqueue(bytes)
  }

  /** EOF on the bridge's input: the client is gone. */
  endClientOutput(): void {
    this.toAgent.close()
    this.toClient.close()
  }

  waitFor(match: (frame: AcpFrame) => boolean): Promise<AcpFrame> {
    const found = this.frames.find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve) => this.waiters.add({ match, resolve }))
  }

  private tap(from: 'agent' | 'client', chunk: Uint8Array, raw: boolean): void {
    const text = this.pending[from] + this.decoder[from].decode(chunk, { stream: true })
    const lines = text.split('\n')
    this.pending[from] = lines.pop() ?? ''
    for (const line of lines) if (line.trim().length > 0) this.record(from, line, raw)
  }

  private record(from: 'agent' | 'client', text: string, raw: boolean): void {
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
      if (waiter.match(frame)) {
        this.waiters.delete(waiter)
        waiter.resolve(frame)
      }
    }
  }
}
