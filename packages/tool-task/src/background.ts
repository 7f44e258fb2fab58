// Background tasks: a delegate that works while its parent goes on. Each has an id
// (`task-<call id>`, `#2`… when a model repeats a call id) the parent's model reads it by (`task_output`) and ends it by (`task_kill`);
// only the session that started one sees it. When it ends by itself, its outcome reaches the
// parent's model before its next request (`agent.note`); a cancelled turn of the parent, or
// the parent's end, ends it (a killed or cancelled task says so through task_output).
import type { Agent, TurnEnd } from '@deepseek-ai/dsh-agent'
import type { ToolSession } from '@deepseek-ai/dsh-tools'
import { TaskError } from './errors'
import type { TaskOutcome } from './outcome'
import type { CallLines } from './report'

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
  killed: boolean
}

export class BackgroundTasks {
  private readonly tasks = new Map<string, BackgroundTask>()
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
      killed: false,
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
        task.outcome = finish(end)
        if (!task.killed && !parent.disposed) {
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

  /** Where task `id` of `session` is: its calls so far, or its outcome once it ended. */
  read(id: string, session: ToolSession | undefined): string {
    const task = this.find(id, session)
    if (task.outcome === undefined) {
      const calls = task.lines.lines()
      const sofar =
        calls.length === 0 ? 'no tool calls yet' : `its calls so far:\n${calls.join('\n')}`
      return `Task ${id} (${task.description}) is still running; ${sofar}`
    }
    const how = task.killed ? 'was killed' : task.outcome.isError ? 'did not finish' : 'finished'
    return `Task ${id} (${task.description}) ${how}. Its report:\n${task.outcome.content}`
  }

  /** Ends task `id` of `session` (its delegate is cancelled and released). */
  async kill(id: string, session: ToolSession | undefined): Promise<string> {
    const task = this.find(id, session)
    if (task.outcome !== undefined) return `Task ${id} had already ended.`
    task.killed = true
    await task.child.dispose()
    await task.ended
    return `Task ${id} (${task.description}) was killed.`
  }

  /** Ends every task `parent` started that still runs. */
  private async killAll(parent: Agent): Promise<void> {
    const running = [...this.tasks.values()].filter(
      (task) => task.owner === parent.session && task.outcome === undefined,
    )
    await Promise.all(running.map((task) => this.kill(task.id, parent.session)))
  }

  private watch(parent: Agent): void {
    if (this.watched.has(parent)) return
    const unsubscribe = parent.subscribe((event) => {
      if (event.type === 'turn/end' && event.reason === 'cancelled') void this.killAll(parent)
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

  private find(id: string, session: ToolSession | undefined): BackgroundTask {
    const task = this.tasks.get(id)
    if (task === undefined || task.owner !== session) {
      const known = [...this.tasks.values()].filter((t) => t.owner === session).map((t) => t.id)
      const list = known.length === 0 ? 'none was started here' : `known: ${known.join(', ')}`
      throw new TaskError(
        'TASK_NOT_FOUND',
        `No background task "${id}" (${list}); use the id the task call returned.`,
      )
    }
    return task
  }
}
