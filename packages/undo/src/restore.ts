// Puts a turn's files back: to their state before it (`undo`) or after it (`redo`). A file is
// written only where it is still as the turn left it (as the undo found it, for a redo); one
// changed since — by the person, in their editor's buffer too, or by another process — is
// overwritten only when `overwrite` says so, and otherwise kept and named. A file outside the
// session's roots (a root gone, a folder turned into a link that leads out) is never touched.
// A text file the editor can write goes through it (`fs/write_text_file`), so an open buffer
// follows; the disk takes the rest, byte for byte, executable bit and links included.
import { realpath } from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import type { ToolEditorFiles } from '@deepseek-ai/dsh-tools'
import { LINK_MODE, readDiskFile, removeDiskFile, writeDiskFile } from './disk'
import type { DiskFile } from './disk'
import type { UndoChange, UndoFileState, UndoStore, UndoTurn } from './types'

export type RestoreDirection = 'undo' | 'redo'

export interface RestoreOptions {
  store: UndoStore
  sessionId: string
  /** The session's roots now. */
  roots: readonly string[]
  /** The session's editor, when it can read or write files. */
  files?: ToolEditorFiles
  /** Decides about files changed since the turn: true overwrites them. */
  overwrite(paths: readonly string[]): Promise<boolean>
}

/** What happened to one file. */
export interface RestoreOutcome {
  /** The file, absolute. */
  path: string
  /** In words: `edit reverted`, `removed (the turn created it)`, `kept: changed since the turn`…. */
  what: string
  /** The file is as the direction wanted (written, or already so). */
  done: boolean
}

interface Plan {
  change: UndoChange
  path: string
  from?: UndoFileState
  to?: UndoFileState
  current?: DiskFile
}

export async function restoreTurn(
  turn: UndoTurn,
  direction: RestoreDirection,
  options: RestoreOptions,
): Promise<RestoreOutcome[]> {
  // A file beyond a link this restore removes (a folder a command turned into a link) is put
  // back once the link is gone: before, its path leads through the link.
  const removed = new Set(
    turn.changes
      .filter((change) => (direction === 'undo' ? change.before : change.after) === undefined)
      .map((change) => `${change.root}\0${change.path}`),
  )
  const beyond = (change: UndoChange): boolean => {
    const parts = change.path.split('/')
    for (let end = 1; end < parts.length; end++)
      if (removed.has(`${change.root}\0${parts.slice(0, end).join('/')}`)) return true
    return false
  }
  const first = turn.changes.filter((change) => !beyond(change))
  const later = turn.changes.filter(beyond)
  const outcomes = await restoreChanges(first, direction, options)
  if (later.length > 0) outcomes.push(...(await restoreChanges(later, direction, options)))
  return outcomes.sort((a, b) => a.path.localeCompare(b.path))
}

/** Restores `changes`: each checked as it is now, then those that may be put back, put back. */
async function restoreChanges(
  changes: readonly UndoChange[],
  direction: RestoreDirection,
  options: RestoreOptions,
): Promise<RestoreOutcome[]> {
  const outcomes: RestoreOutcome[] = []
  const clean: Plan[] = []
  const changedSince: Plan[] = []
  for (const change of changes) {
    const path = join(change.root, ...change.path.split('/'))
    const [from, to] =
      direction === 'undo' ? [change.after, change.before] : [change.before, change.after]
    const plan: Plan = { change, path, ...(from && { from }), ...(to && { to }) }
    if (!(await isInside(path, change.root, options.roots))) {
      outcomes.push({ path, what: "left: outside the session's roots", done: false })
      continue
    }
    try {
      const current = await currentFile(path, options.files)
      if (current === 'other') {
        outcomes.push({ path, what: 'left: no longer a file', done: false })
        continue
      }
      if (current !== undefined) plan.current = current
      if (await holds(current, to, options, change.root)) {
        outcomes.push({ path, what: 'already as it was', done: true })
      } else if (await holds(current, from, options, change.root)) clean.push(plan)
      else changedSince.push(plan)
    } catch (error) {
      outcomes.push({ path, what: `not restored: ${messageOf(error)}`, done: false })
    }
  }
  const overwrite =
    changedSince.length > 0 && (await options.overwrite(changedSince.map((p) => p.path)))
  for (const plan of changedSince)
    if (!overwrite)
      outcomes.push({ path: plan.path, what: 'kept: changed since the turn', done: false })
  for (const plan of overwrite ? [...clean, ...changedSince] : clean) {
    try {
      await put(plan, options)
      outcomes.push({ path: plan.path, what: describe(plan.change, direction), done: true })
    } catch (error) {
      outcomes.push({ path: plan.path, what: `not restored: ${messageOf(error)}`, done: false })
    }
  }
  return outcomes
}

function describe(change: UndoChange, direction: RestoreDirection): string {
  const { before, after } = change
  if (direction === 'undo') {
    if (before === undefined) return 'removed (the turn created it)'
    if (after === undefined) return 'put back (the turn deleted it)'
    return before.oid === after.oid ? 'mode put back' : 'edit reverted'
  }
  if (before === undefined) return 'created again'
  if (after === undefined) return 'deleted again'
  return before.oid === after.oid ? 'mode changed again' : 'edit made again'
}

/** The file now: the editor's buffer for a text file it reads (unsaved changes count). */
async function currentFile(
  path: string,
  files: ToolEditorFiles | undefined,
): Promise<DiskFile | 'other' | undefined> {
  const disk = await readDiskFile(path)
  if (disk === undefined || disk === 'other' || disk.mode === LINK_MODE) return disk
  if (files?.canRead !== true || !isText(disk.bytes)) return disk
  const text = await files.readTextFile(path, AbortSignal.timeout(30_000)).catch(() => undefined)
  return text === undefined ? disk : { mode: disk.mode, bytes: Buffer.from(text) }
}

async function holds(
  current: DiskFile | undefined,
  state: UndoFileState | undefined,
  options: RestoreOptions,
  root: string,
): Promise<boolean> {
  if (current === undefined || state === undefined)
    return current === undefined && state === undefined
  if (current.mode !== state.mode) return false
  return current.bytes.equals(await options.store.read(options.sessionId, root, state))
}

async function put(plan: Plan, options: RestoreOptions): Promise<void> {
  const { path, to, current, change } = plan
  if (to === undefined) return removeDiskFile(path)
  const bytes = await options.store.read(options.sessionId, change.root, to)
  const { files } = options
  const viaEditor =
    files?.canWrite === true && current !== undefined && current.mode === to.mode && isText(bytes)
  if (viaEditor) {
    await files.writeTextFile(path, bytes.toString('utf8'), AbortSignal.timeout(30_000))
    // The editor saved the buffer: where it wrote other bytes (its own line endings), the disk
    // gets the turn's.
    const written = await readDiskFile(path)
    if (written !== 'other' && written?.bytes.equals(bytes) === true) return
  }
  await writeDiskFile(path, { mode: to.mode, bytes })
}

/** UTF-8 that decodes and encodes back to the same bytes, with no NUL: an editor can hold it. */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false
  return Buffer.from(bytes.toString('utf8')).equals(bytes)
}

async function isInside(path: string, root: string, roots: readonly string[]): Promise<boolean> {
  if (!roots.includes(root)) return false
  const realRoot = await realpath(root).catch(() => undefined)
  if (realRoot === undefined) return false
  // The nearest folder that exists must resolve inside the root (no link leads out).
  let dir = dirname(path)
  for (;;) {
    const real = await realpath(dir).catch(() => undefined)
    if (real !== undefined) return real === realRoot || real.startsWith(realRoot + sep)
    if (dir === root || dirname(dir) === dir) return false
    dir = dirname(dir)
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
