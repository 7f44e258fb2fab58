// The head of what a server printed on stderr: the first lines (bounded in count, length and
// bytes), kept to tell the person why a server failed. The rest is read and dropped, so a
// chatty server never blocks on a full pipe.
import type { Readable } from 'node:stream'

const MAX_BYTES = 8192
const MAX_LINES = 8
const MAX_LINE = 240

export class StderrHead {
  private text = ''

  /** Reads `stream` to its end, keeping its first bytes. */
  follow(stream: Readable | null): void {
    stream?.on('data', (chunk: Buffer | string) => {
      if (this.text.length < MAX_BYTES) this.text += String(chunk).slice(0, MAX_BYTES)
    })
    stream?.on('error', () => {
      // The server's stderr broke (it died): what was read is what there is.
    })
  }

  /** The first non-empty lines, each cut to a readable length; empty when nothing came. */
  lines(): string[] {
    return this.text
      .split(/\r?\n/)
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '')
      .slice(0, MAX_LINES)
      .map((line) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line))
  }
}
