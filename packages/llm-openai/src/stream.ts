// Turns the `data:` payloads of a Chat Completions stream into `ctx.llm` stream events:
// content and reasoning deltas at once, tool calls assembled by index across deltas and
// emitted when the choice finishes, then one `finish` with the mapped reason and the usage.
// Pure (no I/O); a payload that breaks the protocol, or a stream that ends before it
// finished, is an `LlmError` with code `LLM_STREAM`.
import { randomUUID } from 'node:crypto'
import { LlmError } from '@deepseek-ai/dsh-llm'
import type { LlmFinishReason, LlmStreamEvent, LlmUsage } from '@deepseek-ai/dsh-llm'
import type { WireChoice, WireChunk, WireToolCallDelta } from './wire'

interface PartialCall {
  id: string
  name: string
  arguments: string
}

const DONE = '[DONE]'

export function toFinishReason(reason: string, hasToolCalls: boolean): LlmFinishReason {
  if (reason === 'length') return 'length'
  if (hasToolCalls || reason === 'tool_calls' || reason === 'function_call') return 'tool-calls'
  if (reason === 'stop') return 'stop'
  return 'error'
}

function streamError(message: string): LlmError {
  return new LlmError('LLM_STREAM', message)
}

function parseChunk(data: string): WireChunk {
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    throw streamError(`the model's stream sent a chunk that is not JSON: ${data.slice(0, 200)}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw streamError(
      `the model's stream sent a chunk that is not an object: ${data.slice(0, 200)}`,
    )
  }
  return value as WireChunk
}

export class ChatStreamAssembler {
  private readonly calls = new Map<number, PartialCall>()
  /** The choice's finish reason, once a chunk carried one. */
  private reason: string | undefined
  private usage: LlmUsage | undefined
  /** Set by `[DONE]` or by `end()`: the `finish` event has been returned. */
  private finished = false
  /** The assembled calls have been returned (they are emitted once). */
  private callsEmitted = false

  /** True once the stream's `[DONE]` was seen; later payloads are ignored. */
  get done(): boolean {
    return this.finished
  }

  /** One event's data; returns the events it completes. */
  push(data: string): LlmStreamEvent[] {
    if (this.finished) return []
    if (data.trim() === DONE) {
      this.finished = true
      return [...this.flushCalls(), this.finishEvent(this.reason ?? 'stop')]
    }
    const chunk = parseChunk(data)
    if (chunk.error !== undefined && chunk.error !== null) {
      const error = chunk.error
      const message = typeof error === 'string' ? error : (error.message ?? JSON.stringify(error))
      throw streamError(`the model server reported an error mid-stream: ${message}`)
    }
    if (chunk.usage) {
      const usage: LlmUsage = {}
      if (typeof chunk.usage.prompt_tokens === 'number')
        usage.inputTokens = chunk.usage.prompt_tokens
      if (typeof chunk.usage.completion_tokens === 'number') {
        usage.outputTokens = chunk.usage.completion_tokens
      }
      const cached =
        chunk.usage.prompt_cache_hit_tokens ?? chunk.usage.prompt_tokens_details?.cached_tokens
      if (typeof cached === 'number') usage.cachedInputTokens = cached
      this.usage = usage
    }
    const events: LlmStreamEvent[] = []
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) === 0) events.push(...this.readChoice(choice))
    }
    return events
  }

  /** The body ended: the final `finish`, or `LLM_STREAM` when the stream was cut short. */
  end(): LlmStreamEvent[] {
    if (this.finished) return []
    if (this.reason === undefined) {
      throw streamError("the model's stream ended early (no finish reason and no [DONE])")
    }
    this.finished = true
    return [...this.flushCalls(), this.finishEvent(this.reason)]
  }

  private readChoice(choice: WireChoice): LlmStreamEvent[] {
    const events: LlmStreamEvent[] = []
    const delta = choice.delta ?? {}
    // DeepSeek and llama.cpp stream `reasoning_content`; vLLM and OpenRouter `reasoning`.
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '')
      events.push({ type: 'reasoning-delta', text: reasoning })
    if (delta.content) events.push({ type: 'text-delta', text: delta.content })
    for (const [position, call] of (delta.tool_calls ?? []).entries()) this.addCall(call, position)
    if (choice.finish_reason) {
      this.reason = choice.finish_reason
      events.push(...this.flushCalls())
    }
    return events
  }

  private addCall(delta: WireToolCallDelta, position: number): void {
    const index = delta.index ?? position
    let call = this.calls.get(index)
    if (call === undefined) {
      call = { id: '', name: '', arguments: '' }
      this.calls.set(index, call)
    }
    if (delta.id && call.id === '') call.id = delta.id
    if (delta.function?.name && call.name === '') call.name = delta.function.name
    if (delta.function?.arguments) call.arguments += delta.function.arguments
  }

  /** The assembled calls in index order, once; a call without a name breaks the protocol. */
  private flushCalls(): LlmStreamEvent[] {
    if (this.callsEmitted) return []
    this.callsEmitted = true
    const indexes = [...this.calls.keys()].sort((a, b) => a - b)
    return indexes.map((index) => {
      const call = this.calls.get(index) as PartialCall
      if (call.name === '') throw streamError(`the model sent tool call #${index} without a name`)
      return {
        type: 'tool-call',
        id: call.id === '' ? `call_${randomUUID()}` : call.id,
        name: call.name,
        arguments: call.arguments === '' ? '{}' : call.arguments,
      }
    })
  }

  private finishEvent(reason: string): LlmStreamEvent {
    const event: LlmStreamEvent = {
      type: 'finish',
      reason: toFinishReason(reason, this.calls.size > 0),
    }
    if (this.usage !== undefined) event.usage = this.usage
    return event
  }
}
