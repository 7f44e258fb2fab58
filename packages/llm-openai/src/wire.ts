// The Chat Completions wire format: the request body built from an `LlmRequest`, and the
// shapes of the streamed chunks. Pure: no fetch, no Cordis. Only the fields dsh uses are
// typed; servers may send more, which are ignored.
import type { LlmMessage, LlmRequest, LlmToolSchema } from '@deepseek-ai/dsh-llm'
import { toWireUserContent, toolImagesMessage } from './wire-images'
import type { WireContentPart } from './wire-images'
import { DEFAULT_BASE_URL } from './config'
import { KNOWN_MODELS, currentModelName } from './models'
import type { ThinkingStyle } from './models'
import { returnsReasoning, thinkingStyleOf, wireThinking } from './thinking'
import type { WireThinking } from './thinking'

export interface WireToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | {
      role: 'assistant'
      content: string | null
      reasoning_content?: string
      tool_calls?: WireToolCall[]
    }
  | { role: 'tool'; tool_call_id: string; content: string }

export interface WireTool {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

export interface WireRequest extends WireThinking {
  model: string
  messages: WireMessage[]
  tools?: WireTool[]
  stream: true
  stream_options: { include_usage: true }
}

/** One streamed chunk (`data:` payload). */
export interface WireChunk {
  choices?: WireChoice[]
  usage?: {
    prompt_tokens?: number
    completion_tokens?: number
    /** DeepSeek: the prompt tokens its cache served. */
    prompt_cache_hit_tokens?: number
    /** OpenAI: the same figure. */
    prompt_tokens_details?: { cached_tokens?: number } | null
  } | null
  error?: { message?: string; code?: string | number } | string
}

export interface WireChoice {
  index?: number
  delta?: {
    content?: string | null
    reasoning_content?: string | null
    /** The same as `reasoning_content`, as vLLM and OpenRouter name it. */
    reasoning?: string | null
    tool_calls?: WireToolCallDelta[] | null
  }
  finish_reason?: string | null
}

export interface WireToolCallDelta {
  index?: number
  id?: string | null
  type?: string
  function?: { name?: string | null; arguments?: string | null }
}

/** `{baseUrl}/chat/completions`, whatever trailing slashes the base URL has. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`
}

function toWireMessage(message: LlmMessage, withReasoning: boolean): WireMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: toWireUserContent(message.content, message.images) }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
    case 'assistant': {
      const calls = message.toolCalls ?? []
      if (calls.length === 0) return { role: 'assistant', content: message.content }
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        ...(withReasoning && { reasoning_content: message.reasoning ?? '' }),
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      }
    }
  }
}

/** After a run of tool results: the user message with their images, if any; a new run. */
function placeToolImages(
  messages: WireMessage[],
  results: Extract<LlmMessage, { role: 'tool' }>[],
): Extract<LlmMessage, { role: 'tool' }>[] {
  const images = toolImagesMessage(results)
  if (images !== undefined) messages.push(images)
  return []
}

function toWireTool(tool: LlmToolSchema): WireTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }
}

/**
 * The streaming request body. The model is the request's (a retired name sent as its
 * successor), else `model`; the thought level's fields follow its thinking style
 * (./thinking). The system prompt becomes the first message (omitted when empty); `tools` is
 * omitted when there are none. Reasoning goes back on the answers that called tools (empty when
 * none was streamed) once the server has streamed reasoning in this conversation, or to a
 * DeepSeek-style model thinking; never on other answers (see ./thinking `returnsReasoning`).
 */
export function toWireRequest(
  request: LlmRequest,
  model: string,
  styleOf: (model: string) => ThinkingStyle = (id) =>
    thinkingStyleOf(id, KNOWN_MODELS[id] ?? {}, DEFAULT_BASE_URL),
): WireRequest {
  const name = currentModelName(request.model ?? model)
  const style = styleOf(name)
  const withReasoning = returnsReasoning(request.messages, style, request.thoughtLevel)
  const messages: WireMessage[] = []
  if (request.system !== '') messages.push({ role: 'system', content: request.system })
  let results: Extract<LlmMessage, { role: 'tool' }>[] = []
  for (const message of request.messages) {
    if (message.role !== 'tool') results = placeToolImages(messages, results)
    else results.push(message)
    messages.push(toWireMessage(message, withReasoning))
  }
  placeToolImages(messages, results)
  const body: WireRequest = {
    model: name,
    messages,
    ...wireThinking(style, request.thoughtLevel),
    stream: true,
    stream_options: { include_usage: true },
  }
  if (request.tools.length > 0) body.tools = request.tools.map(toWireTool)
  return body
}
