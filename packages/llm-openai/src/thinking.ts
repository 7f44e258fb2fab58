// How hard a model thinks, as the request says it: the levels a model offers and the body
// fields each level sends. DeepSeek's models switch thinking with `thinking: { type }` and set
// its depth with `reasoning_effort` (`high`, `max`); other OpenAI-compatible servers take
// `reasoning_effort` alone (`low`, `medium`, `high`), and `default` sends nothing. Pure.
import type { LlmThoughtLevels } from '@deepseek-ai/dsh-llm'
import { KNOWN_MODELS } from './models'

/** The body fields of a thought level. */
export interface WireThinking {
  thinking?: { type: 'enabled' | 'disabled' }
  reasoning_effort?: string
}

const DEEPSEEK_LEVELS: LlmThoughtLevels = {
  levels: ['off', 'high', 'max'],
  default: 'high',
  descriptions: {
    off: 'no thinking: thinking { type: disabled }',
    high: 'thinking { type: enabled }, reasoning_effort high',
    max: 'thinking { type: enabled }, reasoning_effort max',
  },
}

const OPENAI_LEVELS: LlmThoughtLevels = {
  levels: ['default', 'low', 'medium', 'high'],
  default: 'default',
  descriptions: {
    default: "the server's own default: no reasoning field sent",
    low: 'reasoning_effort low',
    medium: 'reasoning_effort medium',
    high: 'reasoning_effort high',
  },
}

/** True for a model that takes DeepSeek's thinking switch. */
export function thinksLikeDeepSeek(model: string): boolean {
  return KNOWN_MODELS[model] !== undefined
}

/** The levels `model` offers: DeepSeek's for its models, the OpenAI field's for the rest. */
export function thoughtLevelsOf(model: string): LlmThoughtLevels {
  return thinksLikeDeepSeek(model) ? DEEPSEEK_LEVELS : OPENAI_LEVELS
}

/**
 * The body fields of `level` for `model` (the model's default level when absent or unknown).
 * DeepSeek's models always get the switch said out loud, so the server's default never decides.
 */
export function wireThinking(model: string, level: string | undefined): WireThinking {
  const offered = thoughtLevelsOf(model)
  const chosen = level !== undefined && offered.levels.includes(level) ? level : offered.default
  if (thinksLikeDeepSeek(model)) {
    if (chosen === 'off') return { thinking: { type: 'disabled' } }
    return { thinking: { type: 'enabled' }, reasoning_effort: chosen }
  }
  return chosen === 'default' ? {} : { reasoning_effort: chosen }
}

/**
 * True when the reasoning of an answer that called tools goes back with it: a DeepSeek model
 * thinking. Its API refuses (400) a later request whose tool-calling answers lack their
 * `reasoning_content`, and ignores the reasoning of answers without tool calls.
 */
export function returnsReasoning(model: string, level: string | undefined): boolean {
  return wireThinking(model, level).thinking?.type === 'enabled'
}
