// The conversation a model is sent, rebuilt from a stored session's events, so a loaded session
// goes on where it stopped: each user message; each model response as one assistant message
// (its text, its reasoning, and — when its calls ran — the tool calls); each tool result as a
// tool message, in the order of the calls (calls that ran side by side finish in any order);
// and each compaction applied where it happened (its stubs, cuts and summary), so the model
// gets the compacted conversation, not the raw one. The same shape the loop builds as it goes
// (./loop), read back from the log; a context source's note is a user-side message where it
// was logged. A call the log has no result for (the process ended in the
// middle of it) gets one saying so, so every tool call the model sees has its result, as the
// model APIs require.
// Pure: events in, messages out.
import type { LlmMessage, LlmToolCall } from '@deepseek-ai/dsh-llm'
import { noteMessage } from './context-sources'
import { applyReplaced } from './elide'
import { toolMessageOf, userMessageOf } from './images'
import type { StoredSessionEvent } from './store'
import type { SessionEvent } from './types'

type AssistantMessage = Extract<LlmMessage, { role: 'assistant' }>
type ToolMessage = Extract<LlmMessage, { role: 'tool' }>

export function historyOf(events: readonly (StoredSessionEvent | SessionEvent)[]): LlmMessage[] {
  let history: LlmMessage[] = []
  /** The results of the current response's calls, by call id, until they are placed. */
  const results = new Map<string, ToolMessage>()
  /** The calls of the current response, in the order the model sent them. */
  let calls: string[] = []
  /** Places the current response's results in call order; a call without one gets one. */
  const settle = () => {
    for (const toolCallId of calls) {
      const content = 'Error: the session ended before this tool finished.'
      history.push(results.get(toolCallId) ?? { role: 'tool', toolCallId, content, isError: true })
    }
    calls = []
    results.clear()
  }
  let response: AssistantMessage | undefined
  /** The response has had tool results: the next chunk starts the next response. */
  let answered = false
  const open = (): AssistantMessage => {
    if (response === undefined || answered) {
      settle()
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
        history.push(userMessageOf(event.text, event.images))
        break
      case 'context/note':
        settle()
        response = undefined
        history.push(noteMessage(event.source, event.text))
        break
      case 'session/note':
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
        // A call logged after results of its own response (calls run side by side) still
        // belongs to it: only a chunk or a call after every call was answered opens a new one.
        const message = answered && calls.some((id) => !results.has(id)) ? response! : open()
        message.toolCalls = [...(message.toolCalls ?? []), toolCallOf(event)]
        calls.push(event.callId)
        break
      }
      case 'tool/result': {
        results.set(event.callId, toolMessageOf(event.callId, event))
        answered = true
        break
      }
      case 'context/compacted':
        settle()
        response = undefined
        history = history.filter(isKept)
        applyReplaced(history, event.replaced)
        if (event.summary !== undefined) {
          const { opening, keep } = event.summary
          history = [{ role: 'user', content: opening }, ...(keep > 0 ? history.slice(-keep) : [])]
        }
        break
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
