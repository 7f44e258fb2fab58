// A guard in front of the SDK's ndjson reader. The SDK ends the whole connection when one
// incoming line is longer than its limit; a client that sends one oversized frame would then
// lose its session. This transform drops such a line instead and puts a short line that is not
// JSON in its place, so the peer gets the ordinary parse error (id null) and the connection
// keeps serving. Lines are counted in bytes; the bytes of other lines pass through untouched.

const NEWLINE = 0x0a
const PLACEHOLDER = new TextEncoder().encode('<dsh-acp: dropped an oversized line>\n')

export interface LineCapOptions {
  /** The longest line, in bytes without its newline, that passes. */
  maxLineBytes: number
  /** Told of each dropped line and its length in bytes. */
  onDropped?: (bytes: number) => void
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
    if (this.dropping) {
      this.options.onDropped?.(this.lineBytes)
      emit(PLACEHOLDER)
    } else {
      for (const part of this.pending) emit(part)
    }
    this.reset()
  }

  private take(part: Uint8Array): void {
    this.lineBytes += part.length
    if (this.dropping) return
    if (this.lineBytes > this.options.maxLineBytes) {
      this.dropping = true
      this.pending = []
      return
    }
    // Held until its newline: whether the line fits is known only then.
    if (part.length > 0) this.pending.push(part)
  }

  private finishLine(emit: (part: Uint8Array) => void): void {
    if (this.dropping) {
      this.options.onDropped?.(this.lineBytes)
      emit(PLACEHOLDER)
    } else {
      for (const part of this.pending) emit(part)
      emit(Uint8Array.of(NEWLINE))
    }
    this.reset()
  }

  private reset(): void {
    this.pending = []
    this.lineBytes = 0
    this.dropping = false
  }
}
