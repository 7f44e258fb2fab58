// A server-sent-events parser for text that arrives in arbitrary network pieces: it keeps a
// partial line across pushes, accepts LF, CRLF and CR line ends (a CR at the end of one piece
// and an LF at the start of the next are one line end), skips comments (`:` lines) and fields
// other than `data`, and dispatches an event's data (its `data:` lines joined by LF) at each
// blank line. Pure; it knows nothing of JSON or of `[DONE]`.

export class SseParser {
  private buffer = ''
  private readonly data: string[] = []
  private skipLineFeed = false

  /** Feeds decoded text; returns the data of every event completed by it, in order. */
  push(text: string): string[] {
    let input = text
    if (this.skipLineFeed && input !== '') {
      if (input.startsWith('\n')) input = input.slice(1)
      this.skipLineFeed = false
    }
    this.buffer += input
    const events: string[] = []
    let start = 0
    for (;;) {
      const end = this.lineEnd(start)
      if (end === -1) break
      this.readLine(this.buffer.slice(start, end), events)
      if (this.buffer[end] === '\r') {
        if (end + 1 === this.buffer.length) {
          this.skipLineFeed = true
          start = end + 1
          break
        }
        start = this.buffer[end + 1] === '\n' ? end + 2 : end + 1
      } else {
        start = end + 1
      }
    }
    this.buffer = this.buffer.slice(start)
    return events
  }

  /** The input has ended: a last unterminated line and event are taken as complete. */
  end(): string[] {
    const events: string[] = []
    if (this.buffer !== '') this.readLine(this.buffer, events)
    this.buffer = ''
    this.readLine('', events)
    return events
  }

  private lineEnd(from: number): number {
    for (let index = from; index < this.buffer.length; index += 1) {
      const char = this.buffer[index]
      if (char === '\n' || char === '\r') return index
    }
    return -1
  }

  private readLine(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push(this.data.join('\n'))
      this.data.length = 0
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    if (field !== 'data') return
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    this.data.push(value)
  }
}
