// OutputBatcher: a command's live output handed on in batches, at most one every `intervalMs`
// (about ten a second), so a flood of small writes costs a few updates, not thousands. A batch
// ends at a line end (`\n` or `\r`): the rest of a line waits for its end, and goes on its own
// only once it waited `partialMs` (a prompt, a progress line), so quick output never shows a
// line cut in two (`ls: ` and then the rest). `flush` sends everything that waits. A batch
// keeps at most `maxChars` (its end, with a line saying how much was skipped), so a flood never
// piles up in memory nor floods the UI: the model's result and the output file keep it all.

/** The most characters one batch carries. */
export const BATCH_MAX_CHARS = 64 * 1024

/** How long the start of a line waits for its end before it goes out alone, in ms. */
export const PARTIAL_LINE_MS = 250

export interface OutputBatcherOptions {
  /** Milliseconds between two batches. */
  intervalMs?: number
  /** How long a line's start waits for its end. */
  partialMs?: number
  maxChars?: number
  /** The clock (milliseconds); tests pass their own. */
  now?: () => number
}

export class OutputBatcher {
  private pending = ''
  private skipped = 0
  private timer: NodeJS.Timeout | undefined
  private last = Number.NEGATIVE_INFINITY
  /** Since when the unfinished line that waits has waited. */
  private partialSince: number | undefined
  private readonly intervalMs: number
  private readonly partialMs: number
  private readonly maxChars: number
  private readonly now: () => number

  constructor(
    private readonly send: (text: string) => void,
    options: OutputBatcherOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 100
    this.partialMs = options.partialMs ?? PARTIAL_LINE_MS
    this.maxChars = options.maxChars ?? BATCH_MAX_CHARS
    this.now = options.now ?? Date.now
  }

  push(text: string): void {
    if (text.length === 0) return
    this.pending += text
    if (this.pending.length > this.maxChars * 2) this.trim()
    this.partialSince ??= this.now()
    // A line end may let out what waited for it; else a waiting timer stays as it is.
    if (this.timer !== undefined && !/[\n\r]/.test(text)) return
    this.tick()
  }

  /** Sends everything that waits, an unfinished line too (the command ended). */
  flush(): void {
    this.cancelTimer()
    this.trim()
    this.sendUpTo(this.pending.length)
  }

  /** Sends the whole lines that wait when the interval allows, else waits for it. */
  private tick(): void {
    this.cancelTimer()
    const now = this.now()
    const wait = this.last + this.intervalMs - now
    if (wait > 0) return this.schedule(wait)
    this.trim()
    const end = Math.max(this.pending.lastIndexOf('\n'), this.pending.lastIndexOf('\r')) + 1
    const waited = now - (this.partialSince ?? now)
    if (waited >= this.partialMs) this.sendUpTo(this.pending.length)
    else if (end > 0) this.sendUpTo(end)
    // What is left is the start of a line: it goes once its end comes or its wait is over.
    const since = this.partialSince ?? now
    if (this.pending.length > 0) this.schedule(this.partialMs - (this.now() - since))
  }

  private sendUpTo(end: number): void {
    if (end === 0) return
    const cut = Math.min(end, this.pending.length)
    const skipped = this.skipped > 0 ? `[… ${this.skipped} characters skipped …]\n` : ''
    const text = skipped + this.pending.slice(0, cut)
    this.pending = this.pending.slice(cut)
    this.skipped = 0
    this.last = this.now()
    this.partialSince = this.pending.length > 0 ? this.last : undefined
    this.send(text)
  }

  private schedule(wait: number): void {
    this.timer = setTimeout(() => this.tick(), Math.max(wait, 0))
  }

  private cancelTimer(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }

  /** Keeps the last `maxChars` of what waits, never starting inside a surrogate pair. */
  private trim(): void {
    if (this.pending.length <= this.maxChars) return
    let start = this.pending.length - this.maxChars
    const code = this.pending.charCodeAt(start)
    if (code >= 0xdc00 && code <= 0xdfff) start++
    this.skipped += start
    this.pending = this.pending.slice(start)
  }
}
