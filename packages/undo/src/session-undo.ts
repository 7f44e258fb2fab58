// One session's undo: it follows the session's turns (turn/start, the person's message,
// turn/end), brackets each call that may change files with the store's snapshots (./types
// UndoRecorder), records each turn that changed something in the session's log (./turn-log),
// and runs `/undo` and `/redo` over it. Recording and restoring run one at a time, so an undo
// asked just after a turn sees that turn.
import type { Agent, SessionEvent } from '@deepseek-ai/dsh-agent'
import type { ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { restoreTurn } from './restore'
import type { RestoreDirection, RestoreOutcome } from './restore'
import { TurnLog } from './turn-log'
import type { UndoRecorder, UndoStore, UndoTurn } from './types'

export interface SessionUndoOptions {
  dir: string
  /** The provider, chosen (git looked for) at its first call. */
  store: () => Promise<UndoStore>
  keepTurns: number
  /** Asks the person about files changed since the turn: true overwrites them. */
  ask(paths: readonly string[]): Promise<boolean>
  /** Something went wrong that the person should know (a snapshot failed). */
  warn(text: string): void
}

interface RunningTurn {
  turnId: string
  title: string
  recorder?: UndoRecorder
  /** Why this turn cannot be undone (a snapshot failed), when it cannot. */
  broken?: string
}

/** What an undo or a redo did: the turn, and each file's outcome; none when nothing to do. */
export interface UndoResult {
  turn?: UndoTurn
  outcomes: RestoreOutcome[]
}

export class SessionUndo {
  private turn: RunningTurn | undefined
  private work: Promise<unknown>
  private readonly log: Promise<TurnLog>
  /** The git store's refs that keep the turns' blobs: brought up to date in order. */
  private keeping: Promise<void> = Promise.resolve()

  constructor(
    private readonly agent: Agent,
    private readonly options: SessionUndoOptions,
  ) {
    this.log = TurnLog.open(options.dir, agent.session.header.id)
    this.work = this.log
    // A process that ended before its refs caught up with its log: they are put right.
    void this.log.then(async (log) => {
      if (log.turns.length > 0 && (await options.store()).kind === 'git') await this.keep([])
    })
  }

  get id(): string {
    return this.agent.session.header.id
  }

  /** A session event, as the agent logs it. */
  see(event: SessionEvent): void {
    if (event.type === 'turn/start') this.turn = { turnId: event.turnId, title: '' }
    else if (event.type === 'user/message' && this.turn?.turnId === event.turnId)
      this.turn.title = titleOf(event.text)
    else if (event.type === 'turn/end' && this.turn?.turnId === event.turnId) this.turn = undefined
  }

  /** Runs a call that may change files between the turn's snapshots. */
  async around(
    file: string | undefined,
    next: () => Promise<ToolExecutionResult>,
  ): Promise<ToolExecutionResult> {
    const turn = this.turn
    if (turn === undefined || turn.broken !== undefined) return next()
    const store = await this.options.store()
    turn.recorder ??= store.begin(this.id, this.agent.session.header.roots)
    const recorder = turn.recorder
    if (!(await this.safely(turn, () => recorder.beforeCall(file)))) return next()
    try {
      return await next()
    } finally {
      // The turn's record is brought up to date before the call's result goes back, so it is
      // on disk by the time the prompt is answered (or the process ends).
      if (await this.safely(turn, () => recorder.afterCall(file)))
        await this.queue(() => this.record(turn, recorder)).catch((error: unknown) =>
          this.options.warn(`Undo could not record the turn: ${messageOf(error)}`),
        )
    }
  }

  /** Undoes the last turn not undone, or redoes the earliest undone one. */
  restore(direction: RestoreDirection, overwrite: boolean): Promise<UndoResult> {
    return this.queue(async () => {
      const log = await this.log
      const turn = direction === 'undo' ? log.lastDone() : log.firstUndone()
      if (turn === undefined) return { outcomes: [] }
      const header = this.agent.session.header
      const files = this.agent.session.scope.channels.files
      const outcomes = await restoreTurn(turn, direction, {
        store: await this.options.store(),
        sessionId: this.id,
        roots: header.roots,
        ...(files !== undefined && { files }),
        overwrite: async (paths) => overwrite || (header.mode === 'ask' && this.options.ask(paths)),
      })
      // While a file changed since is kept, the turn stays the next to undo (or redo): the
      // person settles it, or `overwrite` puts it back too.
      if (outcomes.every((outcome) => outcome.done || !outcome.what.startsWith('kept:')))
        turn.undone = direction === 'undo'
      await log.save()
      return { turn, outcomes }
    })
  }

  private async record(turn: RunningTurn, recorder: UndoRecorder): Promise<void> {
    const { changes, skipped, trees } = await recorder.finish()
    const log = await this.log
    if (changes.length === 0 && skipped.length === 0) {
      const dropped = log.drop(turn.turnId)
      if (dropped !== undefined) {
        await log.save()
        await this.keep([dropped])
      }
      return
    }
    const store = await this.options.store()
    const entry: UndoTurn = {
      turnId: turn.turnId,
      title: turn.title,
      at: new Date().toISOString(),
      store: store.kind,
      changes,
      skipped,
      ...(trees !== undefined && { trees }),
      undone: false,
    }
    const dropped = log.put(entry, this.options.keepTurns)
    await log.save()
    await this.keep(dropped)
  }

  /**
   * Lets the store keep what the turns need and let go of what `dropped` held. The git store's
   * refs matter only to a collection, which spares objects younger than an hour: they follow
   * off the calls' path. The files store deletes what no turn in the log holds, a call's kept
   * bytes too once the next call began: it runs in line.
   */
  private async keep(dropped: readonly UndoTurn[]): Promise<void> {
    const [log, store] = await Promise.all([this.log, this.options.store()])
    if (store.kind !== 'git') return store.retain(this.id, log.turns, dropped)
    this.keeping = this.keeping
      .then(() => store.retain(this.id, log.turns, dropped))
      .catch((error: unknown) =>
        this.options.warn(`Undo could not keep the turns' snapshots: ${messageOf(error)}`),
      )
  }

  private async safely(turn: RunningTurn, step: () => Promise<void>): Promise<boolean> {
    try {
      await step()
      return true
    } catch (error) {
      turn.broken = messageOf(error)
      this.options.warn(`This turn cannot be undone: its snapshot failed (${turn.broken}).`)
      return false
    }
  }

  private queue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.work.then(task, task)
    // The next task runs whatever this one came to; its caller sees its failure.
    this.work = run.catch(() => undefined)
    return run
  }
}

/** A deleted session's undo: its log and what its turns held go. */
export async function dropSessionUndo(
  dir: string,
  store: Promise<UndoStore>,
  sessionId: string,
): Promise<void> {
  const log = await TurnLog.open(dir, sessionId)
  const dropped = [...log.turns]
  await log.remove()
  await (await store).retain(sessionId, [], dropped)
}

function titleOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
