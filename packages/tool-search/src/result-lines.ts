// The lines of a grep result as they stream in: `offset` lines skipped, at most `headLimit`
// kept (0: no line limit), each cut at LINE_MAX_CHARS, the whole kept under RESULT_MAX_CHARS.
// `push` says when nothing more is needed (one line past the limit, or the size cap), so the
// caller ends ripgrep there; `closing` words what was left out and how to see it.
// Pure: no I/O, no Cordis.

export const LINE_MAX_CHARS = 2000
export const RESULT_MAX_CHARS = 30_000
export const LINE_CUT_NOTE = '... (line truncated to 2000 chars)'

/** A line cut at LINE_MAX_CHARS UTF-16 units (a surrogate pair is never split), with a note. */
export function cutLine(text: string): string {
  if (text.length <= LINE_MAX_CHARS) return text
  const code = text.charCodeAt(LINE_MAX_CHARS - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? LINE_MAX_CHARS - 1 : LINE_MAX_CHARS
  return `${text.slice(0, end)}${LINE_CUT_NOTE}`
}

export type ResultEnd =
  /** Every result line was seen and shown. */
  | 'complete'
  /** `headLimit` lines shown and at least one more exists. */
  | 'limit'
  /** The next line would have taken the text past RESULT_MAX_CHARS. */
  | 'size'

export class ResultLines {
  readonly lines: string[] = []
  /** Result lines seen so far, the skipped ones included. */
  seen = 0
  end: ResultEnd = 'complete'
  private chars = 0

  constructor(
    private readonly offset: number,
    private readonly headLimit: number,
  ) {}

  /** Takes the next result line; false once nothing more is needed. */
  push(line: string): boolean {
    this.seen++
    if (this.seen <= this.offset) return true
    if (this.headLimit > 0 && this.lines.length >= this.headLimit) {
      this.end = 'limit'
      return false
    }
    const cut = cutLine(line)
    if (this.chars + cut.length + 1 > RESULT_MAX_CHARS) {
      this.end = 'size'
      return false
    }
    this.chars += cut.length + 1
    this.lines.push(cut)
    return true
  }

  /** The 1-based numbers of the first and last line shown. */
  get first(): number {
    return this.offset + 1
  }

  get last(): number {
    return this.offset + this.lines.length
  }
}

/** What a result that was cut says at its end, or undefined when it is whole. */
export function closingLine(result: ResultLines, narrow: string): string | undefined {
  const range = `lines ${result.first}-${result.last}`
  const next = `Use offset=${result.last} to see the next ones`
  switch (result.end) {
    case 'complete':
      return undefined
    case 'limit':
      return `(Showing result ${range}; there are more. ${next}, or ${narrow}.)`
    case 'size':
      return (
        `(Output capped at ${RESULT_MAX_CHARS.toLocaleString('en-US')} characters: showing ` +
        `result ${range}; there are more. ${next}, or ${narrow}.)`
      )
  }
}
