// CommandOutput: a command's output as it streams, kept within bounds whatever its size. Up to
// the cap it is kept whole; past it, the head and the tail are kept (half the cap each) and the
// whole output goes to a file, so the model gets head + a line saying how much was left out and
// where the rest is + tail. The file is the spill store's (./spill), bounded per call and per
// session: past a bound the note says how much the file holds, or that none was kept. Cuts
// never fall inside a character (a UTF-16 surrogate pair; the text is already decoded from
// UTF-8 whole characters). Memory stays at about twice the cap.
import type { SpillFile } from './spill'

/** The most characters of output the model gets. */
export const OUTPUT_CAP_CHARS = 30_000

export interface CapturedOutput {
  /** The output as the model gets it (whole, or head + note + tail). */
  text: string
  /** Characters the command wrote in all. */
  totalChars: number
  /** The file holding the whole output, when it was cut. */
  file?: string
}

export class CommandOutput {
  private head = ''
  private tail: string[] = []
  private tailChars = 0
  private total = 0
  private spilled = false
  private file: SpillFile | undefined
  private readonly half: number

  /** `openSpill`: the file the whole output goes to once it passes the cap (none: not kept). */
  constructor(
    private readonly openSpill: () => SpillFile | undefined,
    private readonly cap = OUTPUT_CAP_CHARS,
  ) {
    this.half = Math.floor(cap / 2)
  }

  push(text: string): void {
    if (text.length === 0) return
    this.total += text.length
    if (!this.spilled) {
      this.head += text
      if (this.total > this.cap) this.spill()
    } else {
      this.file?.write(text)
      this.tail.push(text)
      this.tailChars += text.length
    }
    this.trimTail()
  }

  finish(): CapturedOutput {
    if (!this.spilled) return { text: this.head, totalChars: this.total }
    this.file?.close()
    const tail = this.tail.join('')
    const left = this.total - this.head.length - tail.length
    const note = `\n\n[… ${left} characters left out; ${this.whereTheRestIs()} …]\n\n`
    const text = this.head + note + tail
    return { text, totalChars: this.total, ...(this.file && { file: this.file.path }) }
  }

  private whereTheRestIs(): string {
    const file = this.file
    if (file === undefined) {
      return 'the rest was not kept: this session’s spilled output reached its limit'
    }
    if (!file.cut) return `the whole output (${this.total} characters) is in ${file.path}`
    return (
      `the first ${file.kept} bytes of the output (${this.total} characters in all) are in ` +
      `${file.path}; the rest was not kept (a spill limit)`
    )
  }

  /** Past the cap: the file gets everything so far, the head keeps its half, the tail the rest. */
  private spill(): void {
    this.spilled = true
    this.file = this.openSpill()
    this.file?.write(this.head)
    const cut = boundary(this.head, this.half)
    this.tail = [this.head.slice(cut)]
    this.tailChars = this.head.length - cut
    this.head = this.head.slice(0, cut)
  }

  private trimTail(): void {
    let over = this.tailChars - this.half
    while (over > 0 && this.tail.length > 0) {
      const first = this.tail[0] as string
      if (first.length <= over) {
        this.tail.shift()
        this.tailChars -= first.length
        over -= first.length
      } else {
        const cut = boundary(first, over, true)
        this.tail[0] = first.slice(cut)
        this.tailChars -= cut
        over = 0
      }
    }
  }
}

/** `at`, moved off the middle of a surrogate pair (backwards, or forwards with `forward`). */
export function boundary(text: string, at: number, forward = false): number {
  const code = text.charCodeAt(at)
  if (at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff) {
    return forward ? at + 1 : at - 1
  }
  return at
}
