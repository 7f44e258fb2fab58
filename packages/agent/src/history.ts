// The conversation a model is sent, rebuilt from a stored session's events, so a loaded session
// goes on where it stopped: each user message; each model response as one assistant message
// (its text, its reasoning, and — when its calls ran — the tool calls); each tool result as a
// tool message. The same shape the loop builds as it goes (./loop), read back from the log. A
// call the log has no result for (the process ended in the middle of it) gets one saying so,
// so every tool call the model sees has its result, as the model APIs require.
// Pure: events in, messages out.
import type { LlmMessage, LlmToolCall } from '@deepseek-ai/dsh-llm'
import type { StoredSessionEvent } from './store'

type AssistantMessage = Extract<LlmMessage, { role: 'assistant' }>

export function historyOf(events: readonly StoredSessionEvent[]): LlmMessage[] {
  const history: LlmMessage[] = []
  /** Calls of the current response that have no result yet. */
  const unanswered = new Set<string>()
  const settle = () => {
    for (const toolCallId of unanswered) {
      const content = 'Error: the session ended before this tool finished.'
      history.push({ role: 'tool', toolCallId, content, isError: true })
    }
    unanswered.clear()
  }
  let response: AssistantMessage | undefined
  /** The response has had tool results: the next chunk starts the next response. */
  let answered = false
  const open = (): AssistantMessage => {
    if (response === undefined || answered) {
      response = { role: 'assistant', content: '' }
      answered = false
      history.push(response)
    }
    return response
  }
  for (const event of events) {
    switch (event.type) {
      case 'user/message':
        settle()
        response = undefined
        history.push({ role: 'user', content: event.text })
        break
      case 'assistant/chunk': {
        const message = open()
        if (event.kind === 'text') message.content += event.text
        else message.reasoning = (message.reasoning ?? '') + event.text
        break
      }
      case 'tool/call': {
        const message = open()
        message.toolCalls = [...(message.toolCalls ?? []), toolCallOf(event)]
        unanswered.add(event.callId)
        break
      }
      case 'tool/result': {
        const content = event.content.map((block) => block.text).join('\n')
        history.push({ role: 'tool', toolCallId: event.callId, content, isError: event.isError })
        unanswered.delete(event.callId)
        answered = true
        break
      }
      case 'turn/end':
        settle()
        response = undefined
        break
      default:
        break
    }
  }
  settle()
  return history.filter(isKept)
}

function toolCallOf(event: Extract<StoredSessionEvent, { type: 'tool/call' }>): LlmToolCall {
  const args = event.arguments
  // The log keeps parsed arguments (or the raw text when they were not JSON): the model gets text.
  return {
    id: event.callId,
    name: event.name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  }
}

/** An assistant message that said nothing and called nothing is dropped, as the loop does. */
function isKept(message: LlmMessage): boolean {
  if (message.role !== 'assistant') return true
  return (
    message.content !== '' || message.reasoning !== undefined || message.toolCalls !== undefined
  )
}
