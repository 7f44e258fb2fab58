// A guard in front of the SDK's ndjson reader. The SDK ends the whole connection when one
// incoming line is longer than its limit; a client that sends one oversized frame would then
// lose its session. This transform drops such a line instead, holding no more of it than the
// limit: the request's id is read from the line's first bytes (./line-id) and handed to
// `onDropped`, whose caller answers that request with an error; a line without a readable id
// is replaced by a short line that is not JSON, so the peer gets the ordinary parse error
// (id null). Either way the connection keeps serving. Lines are counted in bytes; the bytes of
// other lines pass through untouched.
import { requestIdOf } from './line-id'

const NEWLINE = 0x0a
const PLACEHOLDER = new TextEncoder().encode('<dsh-acp: dropped an oversized line>\n')

/** How much of a dropped line's start is searched for its id. */
const HEAD_BYTES = 64 * 1024

/** A dropped line: its length in bytes, and the id of the request it began, when readable. */
export interface DroppedLine {
  bytes: number
  id?: string | number
}

export interface LineCapOptions {
  /** The longest line, in bytes without its newline, that passes. */
  maxLineBytes: number
  /** Told of each dropped line; one with an `id` is not passed on: the caller answers it. */
  onDropped?: (line: DroppedLine) => void
}

/** Passes `input` through, replacing every line longer than `maxLineBytes`. */
export function capLineLength(
  input: ReadableStream<Uint8Array>,
  options: LineCapOptions,
): ReadableStream<Uint8Array> {
  const cap = new LineCap(options)
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => cap.push(chunk, (part) => controller.enqueue(part)),
      flush: (controller) => cap.end((part) => controller.enqueue(part)),
    }),
  )
}

/** The line-length state machine, separate from the stream so it can be tested directly. */
export class LineCap {
  /** Bytes of the current line held back while it might still fit. */
  private pending: Uint8Array[] = []
  private lineBytes = 0
  private dropping = false
  /** The id of the request the line being dropped began, when its start said it. */
  private droppedId: string | number | undefined

  constructor(private readonly options: LineCapOptions) {}

  push(chunk: Uint8Array, emit: (part: Uint8Array) => void): void {
    let start = 0
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start)
      const end = newline === -1 ? chunk.length : newline
      this.take(chunk.subarray(start, end))
      if (newline === -1) return
      this.finishLine(emit)
      start = newline + 1
    }
  }

  end(emit: (part: Uint8Array) => void): void {
    if (this.dropping) this.drop(emit)
    else for (const part of this.pending) emit(part)
    this.reset()
  }

  private take(part: Uint8Array): void {
    this.lineBytes += part.length
    if (this.dropping) return
    if (this.lineBytes > this.options.maxLineBytes) {
      this.dropping = true
      this.droppedId = requestIdOf(headOf([...this.pending, part]))
      this.pending = []
      return
    }
    // Held until its newline: whether the line fits is known only then.
    if (part.length > 0) this.pending.push(part)
  }

  private finishLine(emit: (part: Uint8Array) => void): void {
    if (this.dropping) this.drop(emit)
    else {
      for (const part of this.pending) emit(part)
      emit(Uint8Array.of(NEWLINE))
    }
    this.reset()
  }

  private drop(emit: (part: Uint8Array) => void): void {
    const id = this.droppedId
    this.options.onDropped?.({ bytes: this.lineBytes, ...(id !== undefined && { id }) })
    if (id === undefined) emit(PLACEHOLDER)
  }

  private reset(): void {
    this.pending = []
    this.lineBytes = 0
    this.dropping = false
    this.droppedId = undefined
  }
}

/** The first HEAD_BYTES of `parts`, as text. */
function headOf(parts: readonly Uint8Array[]): string {
  const head: Uint8Array[] = []
  let bytes = 0
  for (const part of parts) {
    if (bytes >= HEAD_BYTES) break
    const piece = part.subarray(0, HEAD_BYTES - bytes)
    head.push(piece)
    bytes += piece.length
  }
  return Buffer.concat(head).toString('utf8')
}

/** The JSON-RPC error answering the request of a dropped line, saying the limit. */
export function oversizedLineAnswer(id: string | number, bytes: number, maxLineBytes: number) {
  const mib = Math.round((maxLineBytes / (1024 * 1024)) * 10) / 10
  const message = `The message is ${bytes} bytes, over this agent's limit of ${maxLineBytes} bytes (${mib} MiB) for one message, so it was not read. Send less at once: a large file as a resource link rather than embedded, or in parts.`
  return {
    jsonrpc: '2.0' as const,
    id,
    error: { code: -32600, message, data: { bytes, limit: maxLineBytes } },
  }
}
