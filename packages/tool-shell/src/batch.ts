// OutputBatcher: a command's live output handed on in batches, at most one every `intervalMs`
// (about ten a second), so a flood of small writes costs a few updates, not thousands. The
// first piece goes at once; later ones wait for the interval; `flush` sends what waits. A batch
// keeps at most `maxChars` (its end, with a line saying how much was skipped), so a flood never
// piles up in memory nor floods the UI: the model's result and the output file keep it all.

/** The most characters one batch carries. */
export const BATCH_MAX_CHARS = 64 * 1024

export class OutputBatcher {
  private pending: string[] = []
  private pendingChars = 0
  private skipped = 0
  private timer: NodeJS.Timeout | undefined
  private last = 0

  constructor(
    private readonly send: (text: string) => void,
    private readonly intervalMs = 100,
    private readonly maxChars = BATCH_MAX_CHARS,
  ) {}

  push(text: string): void {
    this.pending.push(text)
    this.pendingChars += text.length
    if (this.pendingChars > this.maxChars * 2) this.trim()
    if (this.timer !== undefined) return
    const wait = this.last + this.intervalMs - Date.now()
    if (wait <= 0) this.flush()
    else this.timer = setTimeout(() => this.flush(), wait)
  }

  flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    if (this.pending.length === 0) return
    this.trim()
    const skipped = this.skipped > 0 ? `[… ${this.skipped} characters skipped …]\n` : ''
    const text = skipped + this.pending.join('')
    this.pending = []
    this.pendingChars = 0
    this.skipped = 0
    this.last = Date.now()
    this.send(text)
  }

  /** Keeps the last `maxChars` of what waits, never starting inside a surrogate pair. */
  private trim(): void {
    if (this.pendingChars <= this.maxChars) return
    let text = this.pending.join('')
    let start = text.length - this.maxChars
    const code = text.charCodeAt(start)
    if (code >= 0xdc00 && code <= 0xdfff) start++
    this.skipped += start
    text = text.slice(start)
    this.pending = [text]
    this.pendingChars = text.length
  }
}
