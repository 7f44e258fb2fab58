// The ctx.llm seam: the abstract `Llm` service a model provider implements, its request and
// stream-event types, `LlmError`, and the scripted model (the embedded default) with its
// script parser. No network here; see @deepseek-ai/dsh-llm-openai for a real model.
import type { Llm } from './llm'

declare module 'cordis' {
  interface Context {
    llm: Llm
  }
}

export { DEFAULT_CONTEXT_WINDOW, Llm } from './llm'
export * from './types'
export { costOf, inPeak, minutesOf, ratesAt } from './rates'
export { LLM_ERROR_CODES, LlmError, createAbortError, isAbortError, isLlmError } from './errors'
export type { LlmErrorCode, LlmErrorOptions } from './errors'
export { abortableDelay, throwIfAborted } from './abort'
export { loadLlmScript, parseLlmScript } from './script'
export { ScriptedLlm } from './scripted'
export type { ScriptedLlmConfig } from './scripted'
