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
import { noteMessage } from '../context/context-sources'
import { applyReplaced } from '../context/elide'
import { toolMessageOf, userMessageOf } from './images'
import type { StoredSessionEvent } from '../sessions/store'
import type { SessionEvent } from '../types'

type AssistantMessage = Extract<LlmMessage, { role: 'assistant' }>
type ToolMessage = Extract<LlmMessage, { role: 'tool' }>

export function historyOf(events: readonly (StoredSessionEvent | SessionEvent)[]): LlmMessage[] {
  const built = new HistoryBuilder()
  for (const event of events) built.add(event)
  return built.finish()
}

/** The conversation as a log's events build it, one event at a time. */
class HistoryBuilder {
  private history: LlmMessage[] = []
  /** The results of the current response's calls, by call id, until they are placed. */
  private readonly results = new Map<string, ToolMessage>()
  /** The calls of the current response, in the order the model sent them. */
  private calls: string[] = []
  private response: AssistantMessage | undefined
  /** The response has had tool results: the next chunk starts the next response. */
  private answered = false

  add(event: StoredSessionEvent | SessionEvent): void {
    switch (event.type) {
      case 'user/message':
        return this.push(userMessageOf(event.text, event.images))
      case 'context/note':
        return this.push(noteMessage(event.source, event.text))
      case 'session/note':
        return this.push({ role: 'user', content: event.text })
      case 'assistant/chunk': {
        const message = this.open()
        if (event.kind === 'text') message.content += event.text
        else message.reasoning = (message.reasoning ?? '') + event.text
        return
      }
      case 'tool/call': {
        // A call logged after results of its own response (calls run side by side) still
        // belongs to it: only a chunk or a call after every call was answered opens a new one.
        const { answered, calls, results, response } = this
        const pending = answered && calls.some((id) => !results.has(id))
        const message = pending && response !== undefined ? response : this.open()
        message.toolCalls = [...(message.toolCalls ?? []), toolCallOf(event)]
        // After `open`: it may have settled the calls before and begun a new list.
        this.calls.push(event.callId)
        return
      }
      case 'tool/result':
        this.results.set(event.callId, toolMessageOf(event.callId, event))
        this.answered = true
        return
      case 'context/compacted':
        return this.compacted(event)
      case 'turn/end':
        this.settle()
        this.response = undefined
        return
      default:
        return
    }
  }

  finish(): LlmMessage[] {
    this.settle()
    return this.history.filter(isKept)
  }

  /** A message of the person's side: the response before it is over. */
  private push(message: LlmMessage): void {
    this.settle()
    this.response = undefined
    this.history.push(message)
  }

  /** Places the current response's results in call order; a call without one gets one. */
  private settle(): void {
    for (const toolCallId of this.calls) {
      const content = 'Error: the session ended before this tool finished.'
      const result = this.results.get(toolCallId)
      this.history.push(result ?? { role: 'tool', toolCallId, content, isError: true })
    }
    this.calls = []
    this.results.clear()
  }

  /** The response a chunk or a call belongs to: the current one, or a new one. */
  private open(): AssistantMessage {
    if (this.response === undefined || this.answered) {
      this.settle()
      this.response = { role: 'assistant', content: '' }
      this.answered = false
      this.history.push(this.response)
    }
    return this.response
  }

  private compacted(event: Extract<SessionEvent, { type: 'context/compacted' }>): void {
    this.settle()
    this.response = undefined
    let history = this.history.filter(isKept)
    applyReplaced(history, event.replaced)
    if (event.summary !== undefined) {
      const { opening, keep } = event.summary
      history = [{ role: 'user', content: opening }, ...(keep > 0 ? history.slice(-keep) : [])]
    }
    this.history = history
  }
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
