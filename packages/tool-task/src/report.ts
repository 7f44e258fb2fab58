// A child session's report: the text of its last answer, and the line per tool call the task
// card lists (kept live as the child works: CallLines). Pure, over the child's session events.
import type { SessionEvent } from '@deepseek-ai/dsh-agent'

/** The text the child's last turn answered with (its final message), or `''`. */
export function reportOf(events: readonly SessionEvent[]): string {
  let start = 0
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i]!.type === 'turn/start') {
      start = i
      break
    }
  }
  // The last assistant message: the text chunks after the turn's last tool result.
  let text = ''
  for (const event of events.slice(start)) {
    if (event.type === 'tool/result') text = ''
    else if (event.type === 'assistant/chunk' && event.kind === 'text') text += event.text
  }
  return text.trim()
}

/** How a child's call stands on the task card: running, asked about, or ended. */
const MARKS = { running: '…', asked: '?', ok: '✓', failed: '✗' } as const

/**
 * The task card's lines, one per tool call of the child (its title and how it stands), kept
 * as the child's events come: `update` tells whether the lines changed.
 */
export class CallLines {
  private readonly entries: { title: string; mark: string }[] = []
  /** The latest entry of each call id (a model may repeat ids across its requests). */
  private readonly calls = new Map<string, { title: string; mark: string }>()

  update(event: SessionEvent): boolean {
    if (event.type === 'tool/call') {
      const title = event.presentation?.title ?? event.name
      const entry = { title, mark: MARKS.running }
      this.entries.push(entry)
      this.calls.set(event.callId, entry)
      return true
    }
    const call = 'callId' in event ? this.calls.get(event.callId) : undefined
    if (call === undefined) return false
    const mark: string =
      event.type === 'tool/asked'
        ? MARKS.asked
        : event.type === 'tool/started'
          ? MARKS.running
          : event.type === 'tool/result'
            ? event.isError
              ? MARKS.failed
              : MARKS.ok
            : call.mark
    if (mark === call.mark) return false
    call.mark = mark
    return true
  }

  lines(): string[] {
    return this.entries.map(({ title, mark }) => `${mark} ${title}`)
  }
}
