// Types of the ctx.llm seam: a model request and the events its stream yields.

export interface LlmToolCall {
  id: string
  name: string
  /** The arguments as the model sent them: a JSON text, not yet parsed. */
  arguments: string
}

/** An image the model is sent: its type (`image/png`, …) and its bytes in base64. */
export interface LlmImage {
  mimeType: string
  data: string
}

/**
 * A message of the conversation. `images` go with a user message (a prompt's attachments,
 * after its text) or a tool result (an image a tool read); only a model whose `modelInfo`
 * says `imageInput` is sent any.
 */
export type LlmMessage =
  /** `note`: the agent host added it (a context source's note, such as project instructions), not the person. */
  | { role: 'user'; content: string; images?: LlmImage[]; note?: string }
  | { role: 'assistant'; content: string; reasoning?: string; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string; isError?: boolean; images?: LlmImage[] }

export interface LlmToolSchema {
  name: string
  description: string
  parameters: Record<string, unknown>
  /** The tool's results carry images: a host offers it only to a model that takes them. */
  returnsImages?: boolean
}

export interface LlmRequest {
  model?: string
  /** How hard the model thinks: one of its `thoughtLevels` (absent: the provider's default). */
  thoughtLevel?: string
  system: string
  messages: LlmMessage[]
  tools: LlmToolSchema[]
  signal?: AbortSignal
}

export interface LlmUsage {
  /** Tokens of the request as the server counted them (cache hits included). */
  inputTokens?: number
  outputTokens?: number
  /** The part of `inputTokens` the server's prompt cache served. */
  cachedInputTokens?: number
}

/** What a million tokens cost, in the prices' `currency`. */
export interface LlmRates {
  /** An input token the prompt cache did not serve. */
  inputPerMillion: number
  /** An input token served from the prompt cache. */
  cachedInputPerMillion: number
  outputPerMillion: number
}

/**
 * A stretch of the week when a model's peak rates apply, in UTC: `days` are weekdays
 * (0 Sunday … 6 Saturday), `from` and `to` are `HH:MM`, `to` excluded.
 */
export interface LlmPeakWindow {
  days: number[]
  from: string
  to: string
}

/**
 * Prices per million tokens, in `currency`. The rates at the top level are the peak rates; a
 * model priced by the clock adds its `offPeak` rates and the `peak` windows (outside them the
 * off-peak rates apply). Without both, the top-level rates apply at every hour.
 */
export interface LlmPrices extends LlmRates {
  currency: string
  offPeak?: LlmRates
  peak?: LlmPeakWindow[]
}

/** What a host needs to know of a model to keep its requests inside the window. */
export interface LlmModelInfo {
  id: string
  /** Tokens a request (prompt and answer) may hold. */
  contextWindow: number
  /** When known: what a request costs. */
  prices?: LlmPrices
  /** The model takes images (in prompts and tool results); absent: text only. */
  imageInput?: boolean
  /** When known: the most tokens one answer may hold. */
  maxOutputTokens?: number
}

/** The levels a model can think at, when it can reason at more than one. */
export interface LlmThoughtLevels {
  /** The level ids, in order, from the least thinking to the most. */
  levels: string[]
  /** The level a request without one is sent at. */
  default: string
  /** What each level sends, in a line a person reads (by level id). */
  descriptions: Record<string, string>
}

/** A model name its provider retired, and the one that replaced it. */
export interface LlmModelMove {
  from: string
  to: string
  /** One sentence a person reads: what happened and what is used now. */
  notice: string
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
