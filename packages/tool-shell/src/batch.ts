// OutputBatcher: a command's live output handed on in batches, at most one every `intervalMs`
// (about ten a second), so a flood of small writes costs a few updates, not thousands. The
// first piece goes at once; later ones wait for the interval; `flush` sends what waits.
export class OutputBatcher {
  private pending: string[] = []
  private timer: NodeJS.Timeout | undefined
  private last = 0

  constructor(
    private readonly send: (text: string) => void,
    private readonly intervalMs = 100,
  ) {}

  push(text: string): void {
    this.pending.push(text)
    if (this.timer !== undefined) return
    const wait = this.last + this.intervalMs - Date.now()
    if (wait <= 0) this.flush()
    else this.timer = setTimeout(() => this.flush(), wait)
  }

  flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    if (this.pending.length === 0) return
    const text = this.pending.join('')
    this.pending = []
    this.last = Date.now()
    this.send(text)
  }
}
