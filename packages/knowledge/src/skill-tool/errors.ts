// SkillError: what the skill tool refuses, with a code the registry reports and a message that
// tells the model what to do instead.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const SKILL_ERROR_CODES = [
  /** No skill of the session has that name (the message lists the ones there are). */
  'SKILL_NOT_FOUND',
  /** The skill's file could not be read, or is no longer a valid skill. */
  'SKILL_UNREADABLE',
] as const

export type SkillErrorCode = (typeof SKILL_ERROR_CODES)[number]

export class SkillError extends codedError('SkillError', SKILL_ERROR_CODES) {}

/** True for a SkillError (of `code`, when given). */
export const isSkillError = guardOf(SkillError)
