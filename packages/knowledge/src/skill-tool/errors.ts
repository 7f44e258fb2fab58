// SkillError: what the skill tool refuses, with a code the registry reports and a message that
// tells the model what to do instead.

export const SKILL_ERROR_CODES = [
  /** No skill of the session has that name (the message lists the ones there are). */
  'SKILL_NOT_FOUND',
  /** The skill's file could not be read, or is no longer a valid skill. */
  'SKILL_UNREADABLE',
] as const

export type SkillErrorCode = (typeof SKILL_ERROR_CODES)[number]

export class SkillError extends Error {
  override readonly name = 'SkillError'
  readonly code: SkillErrorCode

  constructor(code: SkillErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

/** True for a SkillError (of `code`, when given). */
export function isSkillError(value: unknown, code?: SkillErrorCode): value is SkillError {
  return value instanceof SkillError && (code === undefined || value.code === code)
}
