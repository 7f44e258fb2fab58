// Types of the ctx.llm seam: a model request and the events its stream yields.

export interface LlmToolCall {
  id: string
  name: string
  /** The arguments as the model sent them: a JSON text, not yet parsed. */
  arguments: string
}

export type LlmMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; reasoning?: string; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string; isError?: boolean }

export interface LlmToolSchema {
  name: string
  description: string
  parameters: Record<string, unknown>
}

export interface LlmRequest {
  model?: string
  system: string
  messages: LlmMessage[]
  tools: LlmToolSchema[]
  signal?: AbortSignal
}

export interface LlmUsage {
  inputTokens?: number
  outputTokens?: number
}

export type LlmFinishReason = 'stop' | 'tool-calls' | 'length' | 'error'

export type LlmStreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; id: string; name: string; arguments: string }
  | { type: 'finish'; reason: LlmFinishReason; usage?: LlmUsage }

/** One tool call of a scripted turn; `id` is generated when absent. */
export interface LlmScriptToolCall {
  id?: string
  name: string
  arguments: Record<string, unknown>
}

/** One scripted model response: at least one of text, reasoning, toolCalls. */
export interface LlmScriptTurn {
  text?: string
  reasoning?: string
  toolCalls?: LlmScriptToolCall[]
}

/** The scripted model's script: one turn per model request, played in order. */
export interface LlmScript {
  turns: LlmScriptTurn[]
}
