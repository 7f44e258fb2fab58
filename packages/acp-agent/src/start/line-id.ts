// The JSON-RPC id of a line too long to read, from its first bytes alone: the top-level keys of
// the object are walked, values skipped without being built, until `"id"` is found or the
// bytes run out (an id after a huge `params` cannot be found). A line that is a response (a
// top-level `result` or `error` before the bytes ran out) has no request to answer. Pure.

/** The id of the request `head` begins, when its first bytes say it. */
export function requestIdOf(head: string): string | number | undefined {
  const scan = new Scanner(head)
  if (scan.take() !== '{') return undefined
  let id: string | number | undefined
  while (scan.peek() === '"') {
    const key = scan.string()
    if (key === undefined || scan.take() !== ':') break
    if (key === 'result' || key === 'error') return undefined
    const start = scan.at
    if (!scan.value()) break
    if (key === 'id') id = idOf(head.slice(start, scan.at))
    if (scan.take() !== ',') break
  }
  return id
}

/** A JSON-RPC id: a string or a finite number; anything else (null included) is none. */
function idOf(token: string): string | number | undefined {
  let value: unknown
  try {
    value = JSON.parse(token)
  } catch {
    return undefined
  }
  if (typeof value === 'string') return value
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

const LITERAL = /-?[0-9][0-9.eE+-]*|true|false|null/y

/** A cursor over JSON text that skips values; every step is false/undefined at the text's end. */
class Scanner {
  at = 0

  constructor(private readonly text: string) {}

  /** The next character that is not white space, without taking it. */
  peek(): string | undefined {
    while (this.at < this.text.length && ' \t\r\n'.includes(this.text[this.at]!)) this.at++
    return this.text[this.at]
  }

  take(): string | undefined {
    const char = this.peek()
    if (char !== undefined) this.at++
    return char
  }

  /** A string's value, the cursor past it; undefined when the text ends inside it. */
  string(): string | undefined {
    const start = this.peek() === '"' ? this.at : -1
    if (start === -1 || !this.skipString()) return undefined
    try {
      return JSON.parse(this.text.slice(start, this.at)) as string
    } catch {
      return undefined
    }
  }

  /** Skips one value; false when the text ends inside it. */
  value(): boolean {
    const char = this.peek()
    if (char === '"') return this.skipString()
    if (char === '{' || char === '[') return this.skipNested()
    LITERAL.lastIndex = this.at
    const match = LITERAL.exec(this.text)
    if (match === null) return false
    this.at += match[0].length
    // A literal that runs to the end of the text may go on beyond it.
    return this.at < this.text.length
  }

  private skipString(): boolean {
    for (let i = this.at + 1; i < this.text.length; i++) {
      const char = this.text[i]
      if (char === '\\') i++
      else if (char === '"') {
        this.at = i + 1
        return true
      }
    }
    return false
  }

  private skipNested(): boolean {
    let depth = 0
    for (let i = this.at; i < this.text.length; i++) {
      const char = this.text[i]
      if (char === '"') {
        this.at = i
        if (!this.skipString()) return false
        i = this.at - 1
      } else if (char === '{' || char === '[') depth++
      else if (char === '}' || char === ']') {
        depth--
        if (depth === 0) {
          this.at = i + 1
          return true
        }
      }
    }
    return false
  }
}
