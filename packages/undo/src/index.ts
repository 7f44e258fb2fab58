// ctx.undo: every turn of a session it follows (`open`) that may change files is bracketed by
// snapshots of the session's roots in a store dsh owns (a shadow git store, ./git-store; where
// git is missing, the file tools' own record, ./files-store), and the session offers `/undo`
// and `/redo` among its commands, which put a turn's files back without the model. A client
// bridge's glue opens each of its sessions. Public face only: config, service, re-exports.
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import type { Agent } from '@deepseek-ai/dsh-agent' // and its augmentation: ctx.agents, agents/deleted
import { configOf } from '@deepseek-ai/dsh-tools'
import { Service } from 'cordis'
import type { Context } from 'cordis'
import { z } from 'zod'
import { askOverwrite, changeOf } from './calls'
import { undoCommands } from './commands'
import { FilesUndoStore } from './files-store'
import { gitVersion } from './git'
import { lazy } from './lazy'
import type { Lazy } from './lazy'
import { GitUndoStore } from './git-store'
import { SessionUndo, dropSessionUndo } from './session-undo'
import type { UndoStore } from './types'

declare module 'cordis' {
  interface Context {
    undo: Undo
  }
}

export const Config = z
  .object({
    /** Where the snapshots and undo logs live (default `$XDG_STATE_HOME/dsh/snapshots`). */
    dir: z.string().refine(isAbsolute, 'dir must be an absolute path').optional(),
    /** Turns kept per session for `/undo`; older ones are let go. */
    keepTurns: z.number().int().min(1).max(1000).default(20),
    /** Files larger than this are not kept (and a turn's change to them cannot be undone). */
    maxFileBytes: z
      .number()
      .int()
      .positive()
      .default(10 * 1024 * 1024),
    /** The git program; when it cannot be run, only the file tools' writes are recorded. */
    git: z.string().min(1).default('git'),
  })
  .prefault({})

export type UndoConfig = z.input<typeof Config>

/** `$XDG_STATE_HOME/dsh/snapshots` when that is set and absolute, else `~/.local/state/…`. */
export function defaultSnapshotsDir(env = process.env, home = homedir()): string {
  const state = env.XDG_STATE_HOME
  return join(
    state && isAbsolute(state) ? state : join(home, '.local', 'state'),
    'dsh',
    'snapshots',
  )
}

/** A root session's undo, for as long as the session is open (`Undo.open`). */
export interface UndoSessionChannel {
  /** Tells the person something about the session's undo (a snapshot that failed). */
  warn(title: string): void
}

export default class Undo extends Service {
  static inject = ['agents', 'tools']
  static Config = Config

  private readonly dir: string
  /** The store, chosen at its first use (./lazy: `git --version` runs then, not at start). */
  private readonly store: Lazy<UndoStore>
  private readonly sessions = new Map<string, SessionUndo>()
  private readonly keepTurns: number

  constructor(ctx: Context, config: UndoConfig = {}) {
    super(ctx, 'undo')
    const { keepTurns, maxFileBytes, git, ...given } = configOf(Config, config)
    const dir = given.dir ?? defaultSnapshotsDir()
    this.dir = dir
    this.keepTurns = keepTurns
    // git is looked for once, when a snapshot, an undo or a session's repair first needs the
    // store: no process runs at start. A git that cannot run counts as none.
    this.store = lazy(() =>
      gitVersion(git).then((version) =>
        version === undefined
          ? new FilesUndoStore({ dir, maxFileBytes })
          : new GitUndoStore({ program: git, version, dir, maxFileBytes }),
      ),
    )
    ctx.effect(
      () => () => void this.store.started()?.then((store) => store.close()),
      'undo watches',
    )
    ctx.on('tools/execute', async (exec, next) => {
      const own = exec.session
      const rootId = own.scope.id
      const undo = this.sessions.get(rootId)
      if (undo === undefined) return next()
      const change = await changeOf(ctx.tools, exec, own.header.cwd, rootId)
      return change.may ? undo.around(change.file, next) : next()
    })
    ctx.on('agents/deleted', (id) => {
      void dropSessionUndo(dir, this.store(), id).catch(() => {
        // The session is gone; what its undo kept stays until the next prune of its root.
      })
    })
  }

  /**
   * Follows a root session: its turns bracketed by snapshots, `/undo` and `/redo` offered among
   * its commands (agent.commands). Returns what stops it, for when the session closes.
   */
  open(agent: Agent, channel: UndoSessionChannel): () => void {
    const id = agent.session.header.id
    const undo = new SessionUndo(agent, {
      dir: this.dir,
      store: this.store,
      keepTurns: this.keepTurns,
      ask: (paths) => askOverwrite(agent, paths),
      warn: (title) => channel.warn(title),
    })
    this.sessions.set(id, undo)
    const stop = agent.subscribe((event) => undo.see(event))
    const kind = () => this.store().then((chosen) => chosen.kind)
    agent.commands.offer('undo', 'built-in', undoCommands(undo, kind, agent.session.header.cwd))
    return () => {
      stop()
      if (this.sessions.get(id) === undo) this.sessions.delete(id)
    }
  }
}

export type { UndoChange, UndoFileState, UndoStoreKind, UndoTurn } from './types'
// The providers and the log, for a host that records turns its own way (and the bench).
export { GitUndoStore } from './git-store'
export { FilesUndoStore } from './files-store'
export { TurnLog } from './turn-log'
export type { UndoRecorder, UndoStore } from './types'
