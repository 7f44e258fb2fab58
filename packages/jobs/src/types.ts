// Types of the ctx.jobs seam: a provider of background work (a shell's commands, a session's
// delegates) and a job as a listing shows it. Types only.
import type { ToolExecution, ToolSession } from '@deepseek-ai/dsh-tools'

/** One background job as a listing (an unknown id's error) names it. */
export interface JobSummary {
  /** The id the call that started it returned: `job_output` and `job_kill` take it. */
  id: string
  /** What it is, in a few words: `command: npm run dev`, `task: find the parser`. */
  label: string
  /** False once it ended (it stays readable until its session ends). */
  running: boolean
}

/**
 * Background work of one kind, as it provides its jobs into ctx.jobs. A job belongs to the
 * session whose call started it; only that session lists, reads or ends it.
 */
export interface JobProvider {
  /** The jobs `session` started through this provider that are still known, oldest first. */
  list(session: ToolSession | undefined): JobSummary[]
  /**
   * Where job `id` is, as the model reads it: new output, its calls so far, how it ended.
   * Called only with an id `list` gave for the call's session.
   */
  read(id: string, exec: ToolExecution): string | Promise<string>
  /**
   * Ends job `id` at once; resolves when it has ended, with how, as the model reads it.
   * Called only with an id `list` gave for the call's session.
   */
  kill(id: string, exec: ToolExecution): Promise<string>
}
