// JobError: a job_output or job_kill call the seam cannot serve, with a code the registry
// reports (`error: { name: 'JobError', code }`) and a message that says what to do instead.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const JOB_ERROR_CODES = [
  /** The id names no background job of the call's session (the message lists its jobs). */
  'JOB_NOT_FOUND',
] as const

export type JobErrorCode = (typeof JOB_ERROR_CODES)[number]

export class JobError extends codedError('JobError', JOB_ERROR_CODES) {}

/** True for a JobError (of `code`, when given). */
export const isJobError = guardOf(JobError)
