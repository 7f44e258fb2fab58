// Long strings made short enough to show and to store: a tool call's arguments may carry a
// whole file (a write's `content`), which a card or a session log must not repeat. Any string
// over LONG_STRING_CHARS UTF-16 code units becomes its head, then `… (N more characters)`, the
// whole at most LONG_STRING_CHARS long, so clipping twice changes nothing. One function for
// every place that shows or keeps a call: the agent's logged presentations and stored events,
// the bridge's `rawInput`. Cordis-free and pure: the value given is never changed.

/** The longest string kept whole: 64 KiB of ASCII text. */
export const LONG_STRING_CHARS = 64 * 1024

/** Room left for the marker, whose length grows with the digits of N. */
const MARKER_ROOM = 48

/** Containers nested deeper than this are shown as a note (no JSON a person reads is so deep). */
const MAX_DEPTH = 256

/** `text` unchanged when short; else its head and `… (N more characters)`, N the code units cut. */
export function clipLongString(text: string, max = LONG_STRING_CHARS): string {
  if (text.length <= max) return text
  let head = Math.max(0, max - MARKER_ROOM)
  const last = text.charCodeAt(head - 1)
  if (last >= 0xd800 && last <= 0xdbff) head-- // never split a surrogate pair
  return `${text.slice(0, head)}… (${text.length - head} more characters)`
}

/**
 * `value` with every string over `max` clipped, in plain objects and arrays at any depth up to
 * MAX_DEPTH (deeper containers become a note). What holds no long string is returned as it is
 * (the same object), so the common case costs a walk and no copy.
 */
export function clipLongStrings<T>(value: T, max = LONG_STRING_CHARS): T {
  return clipValue(value, max, 0) as T
}

function clipValue(value: unknown, max: number, depth: number): unknown {
  if (typeof value === 'string') return clipLongString(value, max)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return tooDeep()
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const clipped = clipValue(item, max, depth + 1)
      if (clipped === item) continue
      copy ??= [...value]
      copy[i] = clipped
    }
    return copy ?? value
  }
  if (!isPlainObject(value)) return value
  if (depth >= MAX_DEPTH) return tooDeep()
  let copy: Record<string, unknown> | undefined
  for (const [key, item] of Object.entries(value)) {
    const clipped = clipValue(item, max, depth + 1)
    if (clipped === item) continue
    copy ??= { ...value }
    copy[key] = clipped
  }
  return copy ?? value
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function tooDeep(): string {
  return `… (nested deeper than ${MAX_DEPTH} levels)`
}
