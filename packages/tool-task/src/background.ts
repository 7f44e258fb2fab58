// Background tasks: a delegate that works while its parent goes on, provided into ctx.jobs so
// the parent's model reads it with `job_output` and ends it with `job_kill`. Each has an id
// (`task-<call id>`, `#2`… when a model repeats a call id); only the session that started one
// lists, reads or ends it. When it ends by itself, its outcome reaches the parent's model
// before its next request (`agent.note`). A kill ends the delegate at once (its turn and its
// model stream are aborted, its open cards end); a cancelled turn of the parent ends each
// task it runs the same way, and the parent's end ends and forgets them. A task ended so
// gives no note; its outcome says why it ended (`killed by job_kill`), for job_output and the
// task's card. Bounded as waited delegates are: at most BACKGROUND_LIMITS.session running in a
// person's session (its delegates' tasks included), at most BACKGROUND_LIMITS.total in the
// process; past either, a start is refused (TASK_LIMIT) saying the limit and what to do.
import type { Agent, TurnEnd } from '@deepseek-ai/dsh-agent'
import { JobError } from '@deepseek-ai/dsh-jobs'
import type { JobProvider, JobSummary } from '@deepseek-ai/dsh-jobs'
import type { ToolExecution, ToolSession } from '@deepseek-ai/dsh-tools'
import { TaskError } from './errors'
import type { TaskOutcome } from './outcome'
import type { CallLines } from './report'

/** Background tasks running at once: in one person's session (with its delegates'), in all. */
export const BACKGROUND_LIMITS = { session: 4, total: 16 }

/** Why a task ended before its delegate did: `job_kill`, or its parent's cancelled turn. */
type KilledBy = 'job_kill' | 'cancel'

interface BackgroundTask {
  id: string
  description: string
  owner: ToolSession
  child: Agent
  lines: CallLines
  /** Set when the delegate's turn ended. */
  outcome?: TaskOutcome
  /** Resolves when the delegate's turn has ended and the child is released. */
  ended: Promise<void>
  killed?: KilledBy
}

export class BackgroundTasks implements JobProvider {
  private readonly tasks = new Map<string, BackgroundTask>()

  constructor(private readonly limits = BACKGROUND_LIMITS) {}

  /** Refuses (TASK_LIMIT) a new task of `parent` when its session's tree or the process is full. */
  checkRoom(parent: ToolSession): void {
    const running = [...this.tasks.values()].filter((task) => task.outcome === undefined)
    const mine = running.filter((task) => task.owner.scope === parent.scope).length
    const { session, total } = this.limits
    if (mine < session && running.length < total) return
    const where =
      mine >= session
        ? `${mine} background tasks of this session are running, the most it may have (${session})`
        : `${running.length} background tasks are running in dsh, the most it runs at once (${total})`
    throw new TaskError(
      'TASK_LIMIT',
      `Not started: ${where}. Wait for a report, end a task with job_kill, or run this task ` +
        'waited (without run_in_background).',
    )
  }
  /** The unsubscribe of each parent watched for a cancelled turn. */
  private readonly watched = new WeakMap<Agent, () => void>()

  /**
   * Starts `child` on `prompt` for call `callId`; `finish` makes its outcome when its turn
   * ends. Returns the task's id.
   */
  start(
    callId: string,
    parent: Agent,
    child: Agent,
    spec: { description: string; prompt: string; lines: CallLines },
    finish: (end: TurnEnd) => TaskOutcome,
  ): string {
    let id = `task-${callId}`
    for (let n = 2; this.tasks.has(id); n++) id = `task-${callId}#${n}`
    const task: BackgroundTask = {
      id,
      description: spec.description,
      owner: parent.session,
      child,
      lines: spec.lines,
      ended: Promise.resolve(),
    }
    // A send that rejects (the child already released) ends the task as an error.
    const turn = child.send(spec.prompt).catch((error: unknown): TurnEnd => ({
      type: 'turn/end',
      turnId: '',
      reason: 'error',
      error: error instanceof Error ? error.message : String(error),
    }))
    task.ended = turn
      .then((end) => {
        // A killed task's outcome (its card's last words) says why it ended.
        const why = task.killed === undefined ? {} : { error: killedWords(task.killed) }
        task.outcome = finish({ ...end, ...why })
        if (task.killed === undefined && !parent.disposed) {
          const how = task.outcome.isError ? 'ended without finishing' : 'finished'
          parent.note(
            `Background task ${id} (${spec.description}) ${how}. Its report:\n${task.outcome.content}`,
          )
        }
      })
      .finally(() => child.dispose())
    this.tasks.set(id, task)
    this.watch(parent)
    return id
  }

  list(session: ToolSession | undefined): JobSummary[] {
    return [...this.tasks.values()]
      .filter((task) => task.owner === session)
      .map((task) => ({
        id: task.id,
        label: `task: ${task.description}`,
        running: task.outcome === undefined,
      }))
  }

  /**
   * Where task `id` is: its calls so far while it runs, its report once it finished, or its
   * calls and why it did not finish (killed, cancelled, failed).
   */
  read(id: string, exec: ToolExecution): string {
    const task = this.find(id, exec.session)
    const { outcome } = task
    const named = `Task ${id} (${task.description})`
    if (outcome !== undefined && !outcome.isError) {
      return `${named} finished. Its report:\n${outcome.content}`
    }
    const calls = task.lines.lines()
    const sofar = calls.length === 0 ? 'no tool calls' : `its calls:\n${calls.join('\n')}`
    if (outcome === undefined) return `${named} is still running; ${sofar}`
    return `${named} ended; ${sofar}\n${outcome.content}`
  }

  /** Ends task `id` at once: its delegate's turn is cancelled, and the delegate released. */
  async kill(id: string, exec: ToolExecution): Promise<string> {
    const task = this.find(id, exec.session)
    if (task.outcome !== undefined) return `Task ${id} (${task.description}) had already ended.`
    await this.end(task, 'job_kill')
    return `Task ${id} (${task.description}) was killed.`
  }

  /**
   * Cancels the delegate's turn and waits for its end, then its release: cancelled first, so
   * its turn ends while the host still follows it and the cards it had open are closed.
   */
  private async end(task: BackgroundTask, by: KilledBy): Promise<void> {
    task.killed ??= by
    task.child.cancel()
    await task.ended
  }

  /** Ends every task `parent` started that still runs. */
  private async cancelAll(parent: Agent): Promise<void> {
    const running = [...this.tasks.values()].filter(
      (task) => task.owner === parent.session && task.outcome === undefined,
    )
    await Promise.all(running.map((task) => this.end(task, 'cancel')))
  }

  private watch(parent: Agent): void {
    if (this.watched.has(parent)) return
    const unsubscribe = parent.subscribe((event) => {
      if (event.type === 'turn/end' && event.reason === 'cancelled') void this.cancelAll(parent)
    })
    this.watched.set(parent, unsubscribe)
    // The parent's end ends its delegates (they are its children); its tasks are forgotten.
    const forget = () => {
      unsubscribe()
      for (const task of this.tasks.values())
        if (task.owner === parent.session) this.tasks.delete(task.id)
    }
    parent.lifetime.addEventListener('abort', forget, { once: true })
  }

  /** Task `id` of `session`; ctx.jobs asks only for ids `list` gave, so a miss is a race. */
  private find(id: string, session: ToolSession | undefined): BackgroundTask {
    const task = this.tasks.get(id)
    if (task === undefined || task.owner !== session) {
      throw new JobError('JOB_NOT_FOUND', `No background task "${id}" in this session.`)
    }
    return task
  }
}

function killedWords(by: KilledBy): string {
  return by === 'cancel' ? 'ended by a cancelled turn of its session' : 'killed by job_kill'
}
