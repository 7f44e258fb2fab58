// A child session's report: the text of its last answer, and the line per tool call the task
// card lists. Pure, over the child's session events.
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

/** One line per tool call of the child: its card's title and how it ended. */
export function callLinesOf(events: readonly SessionEvent[]): string[] {
  const titles = new Map<string, string>()
  const lines: string[] = []
  for (const event of events) {
    if (event.type === 'tool/call')
      titles.set(event.callId, event.presentation?.title ?? event.name)
    if (event.type === 'tool/result') {
      const title = titles.get(event.callId) ?? event.name
      lines.push(`${event.isError ? '✗' : '✓'} ${title}`)
    }
  }
  return lines
}
