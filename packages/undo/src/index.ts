// The undo plugin: every turn that may change files is bracketed by snapshots of the session's
// roots in a store dsh owns (a shadow git store, ./git-store; where git is missing, the file
// tools' own record, ./files-store), and each ACP session offers `/undo` and `/redo`, which put
// a turn's files back without the model. Public face only: config, plugin, re-exports.
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'
import type {} from '@deepseek-ai/dsh-agent' // for its augmentation: ctx.agents, agents/deleted
import type { Context } from 'cordis'
import { configOf } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import { askOverwrite, changeOf } from './calls'
import { undoCommands } from './commands'
import { FilesUndoStore } from './files-store'
import { gitVersion } from './git'
import { GitUndoStore } from './git-store'
import { SessionUndo, dropSessionUndo } from './session-undo'
import type { UndoStore } from './types'

export const name = 'undo'

export const inject = ['agents', 'tools', 'acp']

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

export function apply(ctx: Context, config: UndoConfig): void {
  const { keepTurns, maxFileBytes, git, ...given } = configOf(Config, config)
  const dir = given.dir ?? defaultSnapshotsDir()
  // git is looked for once, off the start's path; sessions wait for the answer.
  const store: Promise<UndoStore> = gitVersion(git).then((version) =>
    version === undefined
      ? new FilesUndoStore({ dir, maxFileBytes })
      : new GitUndoStore({ program: git, dir, maxFileBytes }),
  )
  const sessions = new Map<string, SessionUndo>()

  ctx.on('acp/session-open', (session: AcpSessionOpening) => {
    const { agent, id } = session
    const undo = new SessionUndo(agent, {
      dir,
      store,
      keepTurns,
      ask: (paths) => askOverwrite(agent, paths),
      warn: (title) => session.notify({ title, severity: 'warning' }),
    })
    sessions.set(id, undo)
    const stop = agent.subscribe((event) => undo.see(event))
    session.onClose(() => {
      stop()
      if (sessions.get(id) === undo) sessions.delete(id)
    })
    const kind = store.then((chosen) => chosen.kind)
    session.commands.offer('undo', 'built-in', undoCommands(undo, kind, agent.session.header.cwd))
  })

  ctx.on('tools/execute', async (exec, next) => {
    const own = exec.session
    const rootId = own.scope.id
    const undo = sessions.get(rootId)
    if (undo === undefined) return next()
    const change = await changeOf(ctx.tools, exec, own.header.cwd, rootId)
    return change.may ? undo.around(change.file, next) : next()
  })

  ctx.on('agents/deleted', (id) => {
    void dropSessionUndo(dir, store, id).catch(() => {
      // The session is gone; what its undo kept stays until the next prune of its root.
    })
  })
}

export type { UndoChange, UndoFileState, UndoStoreKind, UndoTurn } from './types'
// The providers and the log, for a host that records turns its own way (and the bench).
export { GitUndoStore } from './git-store'
export { FilesUndoStore } from './files-store'
export { TurnLog } from './turn-log'
export type { UndoRecorder, UndoStore } from './types'
