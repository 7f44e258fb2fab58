// PlanError: what the todo tool refuses after its arguments passed the schema, with a code the
// registry reports (`error: { name: 'PlanError', code }`) and a message that tells the model
// how to send the list again.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const PLAN_ERROR_CODES = [
  /** More than one item is `in_progress`: one thing is worked on at a time. */
  'PLAN_SEVERAL_IN_PROGRESS',
] as const

export type PlanErrorCode = (typeof PLAN_ERROR_CODES)[number]

export class PlanError extends codedError('PlanError', PLAN_ERROR_CODES) {}

/** True for a PlanError (of `code`, when given). */
export const isPlanError = guardOf(PlanError)
