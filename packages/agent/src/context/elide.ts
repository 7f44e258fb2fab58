// The cheap half of a compaction, pure: old tool outputs replaced by one-line stubs that say
// what was elided and how to get it back, and a tool output too large for what is left cut
// with a note. "Old" is everything before the last few model steps (a step is one model
// response and the results of its calls), which stay whole. Everything before them is elided
// in one batch, so the requests that follow share their prefix until the next compaction.
// A tool output is never elided when `keep` says so (state that must survive compaction).
import type { LlmMessage, LlmToolCall } from '@deepseek-ai/dsh-llm'

type ToolMessage = Extract<LlmMessage, { role: 'tool' }>

/** Says which tool outputs must survive compaction whole (a plan, a task list). */
export type KeepToolOutput = (call: { name: string; arguments: string }) => boolean

/** The index where the last `steps` model steps begin (history.length when there are none). */
export function recentStart(history: readonly LlmMessage[], steps: number): number {
  let seen = 0
  for (let index = history.length - 1; index >= 0; index -= 1) {
    if (history[index]!.role === 'assistant') {
      seen += 1
      if (seen === steps) return index
    }
  }
  // Fewer steps than that: everything from the first response on is recent.
  const first = history.findIndex((message) => message.role === 'assistant')
  return first === -1 ? history.length : first
}

/** The calls of the history by id, for the stubs. */
export function callsById(history: readonly LlmMessage[]): Map<string, LlmToolCall> {
  const calls = new Map<string, LlmToolCall>()
  for (const message of history) {
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) calls.set(call.id, call)
  }
  return calls
}

const STUB_MARK = 'elided to save context'

export function isStub(content: string): boolean {
  return content.startsWith('[') && content.includes(STUB_MARK) && !content.includes('\n')
}

/** What a call was about, from its arguments: a path, a pattern, a command, with its range. */
function subjectOf(call: LlmToolCall | undefined): string {
  if (call === undefined) return 'a tool'
  let args: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(call.arguments)
    if (typeof parsed === 'object' && parsed !== null) args = parsed as Record<string, unknown>
  } catch {
    // Arguments that were not JSON: the stub names the tool alone.
  }
  const target = ['file_path', 'path', 'pattern', 'command', 'url', 'query']
    .map((key) => args[key])
    .find((value): value is string => typeof value === 'string' && value !== '')
  if (target === undefined) return call.name
  const offset = typeof args.offset === 'number' ? args.offset : undefined
  const limit = typeof args.limit === 'number' ? args.limit : undefined
  const range =
    offset !== undefined && limit !== undefined
      ? ` lines ${offset}–${offset + limit - 1}`
      : offset !== undefined
        ? ` from line ${offset}`
        : ''
  return `${call.name} of ${target.length > 120 ? `${target.slice(0, 119)}…` : target}${range}`
}

function lineCount(text: string): number {
  let lines = 1
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
    lines += 1
  return lines
}

/** The one-line stub of an elided output: `[read of src/a.ts (200 lines) elided to save context; …]`. */
export function stubFor(call: LlmToolCall | undefined, content: string): string {
  const size = `${lineCount(content)} lines`
  return `[${subjectOf(call)} (${size}) ${STUB_MARK}; run it again if needed]`
}

export interface Elision {
  history: LlmMessage[]
  replaced: { callId: string; content: string }[]
}

/**
 * Every tool output before `end` that is not a stub already, nor kept, becomes its stub. The
 * history is copied; messages that change are new objects.
 */
export function elideBefore(
  history: readonly LlmMessage[],
  end: number,
  keep?: KeepToolOutput,
): Elision {
  const calls = callsById(history)
  const replaced: Elision['replaced'] = []
  const next = history.map((message, index) => {
    if (index >= end || message.role !== 'tool' || isStub(message.content)) return message
    const call = calls.get(message.toolCallId)
    if (call && keep?.(call)) return message
    const content = stubFor(call, message.content)
    const images = message.images?.length ?? 0
    if (content.length >= message.content.length && images === 0) return message
    replaced.push({ callId: message.toolCallId, content })
    return withoutImages(message, content)
  })
  return { history: next, replaced }
}

/** How much of an output is kept at least when it is cut: a few lines always get through. */
const MIN_KEPT_CHARS = 2000

/**
 * `content` cut to about `maxChars`, with a note saying so and how to get the rest; unchanged
 * when it fits.
 */
export function cutOutput(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content
  const keep = Math.max(MIN_KEPT_CHARS, maxChars - 200)
  if (keep >= content.length) return content
  const end = content.lastIndexOf('\n', keep)
  const kept = content.slice(0, end > keep / 2 ? end : keep)
  return `${kept}\n[output cut to ${kept.length} of ${content.length} characters to fit the context window; ask for a narrower part (an offset and a limit, a narrower pattern) to see the rest]`
}

/** Applies a logged replacement to a history (a loaded session rebuilding its conversation). */
export function applyReplaced(
  history: LlmMessage[],
  replaced: readonly { callId: string; content: string }[],
): void {
  const byId = new Map(replaced.map((entry) => [entry.callId, entry.content]))
  history.forEach((message, index) => {
    if (message.role !== 'tool') return
    const content = byId.get(message.toolCallId)
    if (content !== undefined) history[index] = withoutImages(message, content)
  })
}

/** A tool message replaced by `content`: its images (if any) go with the old content. */
function withoutImages(message: ToolMessage, content: string): ToolMessage {
  const { images: _images, ...rest } = message
  return { ...rest, content }
}
