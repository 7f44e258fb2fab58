// How hard a model thinks, as the request says it, and when reasoning goes back to the server.
// A model's style (./models `ThinkingStyle`) gives its levels and the body fields each sends:
// DeepSeek's switch `thinking: { type }` with `reasoning_effort` (low, high, max); the OpenAI
// field `reasoning_effort` alone (low, medium, high; `default` sends nothing); or nothing.
// Reasoning goes back by what the server did, not by the model's name: see `returnsReasoning`.
// Pure.
import type { LlmMessage, LlmThoughtLevels } from '@deepseek-ai/dsh-llm'
import type { ModelFacts, ThinkingStyle } from './models'
import { isDeepSeekHost } from './models'

/** The body fields of a thought level. */
export interface WireThinking {
  thinking?: { type: 'enabled' | 'disabled' }
  reasoning_effort?: string
}

const DEEPSEEK_LEVELS: LlmThoughtLevels = {
  levels: ['off', 'low', 'high', 'max'],
  default: 'high',
  descriptions: {
    off: 'no thinking: thinking { type: disabled }',
    low: 'thinking { type: enabled }, reasoning_effort low',
    high: 'thinking { type: enabled }, reasoning_effort high',
    max: 'thinking { type: enabled }, reasoning_effort max',
  },
}

const EFFORT_LEVELS: LlmThoughtLevels = {
  levels: ['default', 'low', 'medium', 'high'],
  default: 'default',
  descriptions: {
    default: "the server's own default: no reasoning field sent",
    low: 'reasoning_effort low',
    medium: 'reasoning_effort medium',
    high: 'reasoning_effort high',
  },
}

/**
 * How `model` is told to think: what its facts say, else DeepSeek's switch for a `deepseek-`
 * id on DeepSeek's host (a model newer than the table), else the OpenAI field.
 */
export function thinkingStyleOf(model: string, facts: ModelFacts, baseUrl: string): ThinkingStyle {
  if (facts.thinking !== undefined) return facts.thinking
  const name = model.toLowerCase()
  return isDeepSeekHost(baseUrl) && name.startsWith('deepseek-') ? 'deepseek' : 'effort'
}

/** The levels of a style; undefined for a model with one way of answering. */
export function thoughtLevelsOf(style: ThinkingStyle): LlmThoughtLevels | undefined {
  if (style === 'none') return undefined
  return style === 'deepseek' ? DEEPSEEK_LEVELS : EFFORT_LEVELS
}

/**
 * The body fields of `level` (the style's default when absent or unknown). DeepSeek's models
 * always get the switch said out loud, so the server's default never decides.
 */
export function wireThinking(style: ThinkingStyle, level: string | undefined): WireThinking {
  const offered = thoughtLevelsOf(style)
  if (offered === undefined) return {}
  const chosen = level !== undefined && offered.levels.includes(level) ? level : offered.default
  if (style === 'deepseek') {
    if (chosen === 'off') return { thinking: { type: 'disabled' } }
    return { thinking: { type: 'enabled' }, reasoning_effort: chosen }
  }
  return chosen === 'default' ? {} : { reasoning_effort: chosen }
}

/**
 * True when each answer that called tools carries `reasoning_content` back (empty when it
 * streamed none): when the conversation holds reasoning the server streamed, whatever the
 * model is called, or when a DeepSeek-style model thinks now. DeepSeek's API refuses (400) a
 * thinking request whose tool-calling answers lack their reasoning; a server that never
 * streamed reasoning never sees the field.
 */
export function returnsReasoning(
  messages: readonly LlmMessage[],
  style: ThinkingStyle,
  level: string | undefined,
): boolean {
  if (wireThinking(style, level).thinking?.type === 'enabled') return true
  return messages.some((message) => message.role === 'assistant' && !!message.reasoning)
}
