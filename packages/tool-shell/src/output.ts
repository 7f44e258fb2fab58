// CommandOutput: a command's output as it streams, kept within bounds whatever its size. Up to
// the cap it is kept whole; past it, the head and the tail are kept (half the cap each) and the
// whole output goes to a file, so the model gets head + a line saying how much was left out and
// where the rest is + tail. Cuts never fall inside a character (a UTF-16 surrogate pair; the
// text is already decoded from UTF-8 whole characters). Memory stays at about twice the cap.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'

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
  private fd: number | undefined
  private readonly half: number

  /** `spillPath`: where the whole output goes once it passes the cap. */
  constructor(
    private readonly spillPath: string,
    private readonly cap = OUTPUT_CAP_CHARS,
  ) {
    this.half = Math.floor(cap / 2)
  }

  push(text: string): void {
    if (text.length === 0) return
    this.total += text.length
    if (this.fd === undefined) {
      this.head += text
      if (this.total > this.cap) this.spill()
    } else {
      writeSync(this.fd, text)
      this.tail.push(text)
      this.tailChars += text.length
    }
    this.trimTail()
  }

  finish(): CapturedOutput {
    if (this.fd === undefined) return { text: this.head, totalChars: this.total }
    closeSync(this.fd)
    const tail = this.tail.join('')
    const left = this.total - this.head.length - tail.length
    const note = `\n\n[… ${left} characters left out; the whole output (${this.total} characters) is in ${this.spillPath} …]\n\n`
    return { text: this.head + note + tail, totalChars: this.total, file: this.spillPath }
  }

  /** Past the cap: the file gets everything so far, the head keeps its half, the tail the rest. */
  private spill(): void {
    mkdirSync(dirname(this.spillPath), { recursive: true })
    this.fd = openSync(this.spillPath, 'w', 0o600)
    writeSync(this.fd, this.head)
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
