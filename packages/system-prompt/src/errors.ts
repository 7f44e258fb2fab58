// SystemPromptError: what `ctx.systemPrompt.add` throws for a section it refuses. The codes
// are listed here and in the README; nothing else in the package throws.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const SYSTEM_PROMPT_ERROR_CODES = [
  /** A section with the same name is already added. */
  'PROMPT_DUPLICATE_SECTION',
  /** The section has an empty name, a text that is not a string, or a non-finite order. */
  'PROMPT_INVALID_SECTION',
] as const

export type SystemPromptErrorCode = (typeof SYSTEM_PROMPT_ERROR_CODES)[number]

export class SystemPromptError extends codedError('SystemPromptError', SYSTEM_PROMPT_ERROR_CODES) {}

/** True for a SystemPromptError (of `code`, when given). */
export const isSystemPromptError = guardOf(SystemPromptError)
