// The task tool's input: what the card says, the self-contained prompt, the kind of delegate.
import { z } from 'zod'

export const TASK_TYPES = ['general', 'explorer'] as const

export type TaskType = (typeof TASK_TYPES)[number]

export const taskInput = z.object({
  /** A few words for the card, e.g. `find the config loader`. */
  description: z.string().min(1).max(80),
  /** The whole task, self-contained: the delegate sees nothing of this conversation. */
  prompt: z.string().min(1),
  /**
   * `explorer`: reads, searches and runs read-only commands, never changes anything;
   * `general` (default): may do what the session may; or a project's type
   * (`.agents/agents/<name>.md`).
   */
  agent_type: z.string().min(1).default('general'),
  /**
   * true: the call returns a task id at once; the report comes before a later model request
   * (and through `job_output`); `job_kill` ends it.
   */
  run_in_background: z.boolean().default(false),
})

export type TaskArgs = z.infer<typeof taskInput>
