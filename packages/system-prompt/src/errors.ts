// SystemPromptError: what `ctx.systemPrompt.add` throws for a section it refuses. The codes
// are listed here and in the README; nothing else in the package throws.

export const SYSTEM_PROMPT_ERROR_CODES = [
  /** A section with the same name is already added. */
  'PROMPT_DUPLICATE_SECTION',
  /** The section has an empty name, a text that is not a string, or a non-finite order. */
  'PROMPT_INVALID_SECTION',
] as const

export type SystemPromptErrorCode = (typeof SYSTEM_PROMPT_ERROR_CODES)[number]

export class SystemPromptError extends Error {
  override readonly name = 'SystemPromptError'
  readonly code: SystemPromptErrorCode

  constructor(code: SystemPromptErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
  }
}

/** True for a SystemPromptError (of `code`, when given). */
export function isSystemPromptError(
  value: unknown,
  code?: SystemPromptErrorCode,
): value is SystemPromptError {
  return value instanceof SystemPromptError && (code === undefined || value.code === code)
}
