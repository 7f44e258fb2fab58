// TaskError: why a task did not run or a delegate's call was refused. Codes listed here and in
// the README.
import { codedError } from '@deepseek-ai/dsh-tools/coded-error'

export const TASK_ERROR_CODES = [
  /** The call has no agent session to delegate from, or the delegates are nested too deep. */
  'TASK_NOT_ALLOWED',
  /** An explorer's call would change something. */
  'TASK_READ_ONLY',
  /** `agent_type` names no built-in or project type. */
  'TASK_UNKNOWN_TYPE',
  /** A delegate of a project type called a tool its type does not list. */
  'TASK_TOOL_NOT_ALLOWED',
  /** As many background tasks as allowed run already (in the session's tree, or in all). */
  'TASK_LIMIT',
] as const

export type TaskErrorCode = (typeof TASK_ERROR_CODES)[number]

export class TaskError extends codedError('TaskError', TASK_ERROR_CODES) {}
