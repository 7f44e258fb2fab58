// JobError: a job_output or job_kill call the seam cannot serve, with a code the registry
// reports (`error: { name: 'JobError', code }`) and a message that says what to do instead.

export const JOB_ERROR_CODES = [
  /** The id names no background job of the call's session (the message lists its jobs). */
  'JOB_NOT_FOUND',
] as const

export type JobErrorCode = (typeof JOB_ERROR_CODES)[number]

export class JobError extends Error {
  override readonly name = 'JobError'
  readonly code: JobErrorCode

  constructor(code: JobErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

/** True for a JobError (of `code`, when given). */
export function isJobError(value: unknown, code?: JobErrorCode): value is JobError {
  return value instanceof JobError && (code === undefined || value.code === code)
}
