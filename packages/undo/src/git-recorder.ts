// One turn's record on the git store (./git-root): for each file the turn changed, its state
// before the turn's first change to it and after its last. A file tool's call is recorded from
// its own file, with no walk; any other call (a command, an MCP tool, a delegate's call) from
// walks of the roots. Cordis-free.
import { readlink, realpath } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { GitFileState, GitRoot } from './git-root'
import type { UndoChange, UndoFileState, UndoRecorder, UndoTurn } from './types'

/** What a turn did to one file so far: its state before the turn's first change, and now. */
interface Entry {
  store: GitRoot
  path: string
  before?: UndoFileState
  after?: UndoFileState
  /** Over the size cap at some point: left out and named. */
  tooLarge?: boolean
}

/**
 * One turn's record. A file tool's call names its file: that file's state is taken before and
 * after it, and nothing else is looked at. Any other call may change anything: before the
 * turn's first such call a walk takes in what changed since the store last looked (the
 * person's edits between turns: never this turn's), and after each one a walk records what
 * changed. Each file keeps the state it had before the turn's first change to it.
 */
export class GitRecorder implements UndoRecorder {
  /** By root and path. */
  private readonly entries = new Map<string, Entry>()
  /** A file tool's file (absolute) and its entry's key, as found before its first call. */
  private readonly named = new Map<string, string | undefined>()
  private walked: Promise<unknown> | undefined

  constructor(private readonly roots: readonly GitRoot[]) {}

  async beforeCall(file?: string): Promise<void> {
    if (file === undefined) {
      this.walked ??= Promise.all(this.roots.map((root) => root.walk(false)))
      await this.walked
      return
    }
    if (this.named.has(file)) return
    const found = await locate(this.roots, file)
    const at = found && entryKey(found.store, found.path)
    this.named.set(file, at)
    if (found === undefined || at === undefined || this.entries.has(at)) return
    const state = await found.store.fileState(found.path)
    if (!this.entries.has(at)) this.entries.set(at, startEntry(found.store, found.path, state))
  }

  async afterCall(file?: string): Promise<void> {
    if (file !== undefined) {
      const entry = this.entries.get(this.named.get(file) ?? '')
      if (entry !== undefined) setAfter(entry, await entry.store.fileState(entry.path))
      return
    }
    for (const store of this.roots) {
      const { changes, oversized } = await store.walk(true)
      for (const { path, before, after } of changes) {
        const entry = this.entries.get(entryKey(store, path))
        if (entry === undefined)
          this.entries.set(entryKey(store, path), {
            store,
            path,
            ...(before && { before }),
            ...(after && { after }),
          })
        else setAfter(entry, after)
      }
      for (const path of oversized) {
        const entry = this.entries.get(entryKey(store, path))
        if (entry === undefined)
          this.entries.set(entryKey(store, path), startEntry(store, path, 'too-large'))
        else entry.tooLarge = true
      }
    }
  }

  async finish(): Promise<Pick<UndoTurn, 'changes' | 'skipped' | 'trees'>> {
    const changes: UndoChange[] = []
    const skipped: string[] = []
    const held = new Map<GitRoot, { before: string[]; after: string[] }>()
    const sorted = [...this.entries.values()].sort((a, b) => a.path.localeCompare(b.path))
    for (const { store, path, before, after, tooLarge } of sorted) {
      if (tooLarge === true) skipped.push(path)
      if (tooLarge === true || (before?.oid === after?.oid && before?.mode === after?.mode))
        continue
      changes.push({ root: store.root, path, ...(before && { before }), ...(after && { after }) })
      const oids = held.get(store) ?? { before: [], after: [] }
      if (before !== undefined) oids.before.push(before.oid)
      if (after !== undefined) oids.after.push(after.oid)
      held.set(store, oids)
    }
    const trees: NonNullable<UndoTurn['trees']> = []
    for (const [store, oids] of held) {
      const [before, after] = await Promise.all([
        store.holderTree(oids.before),
        store.holderTree(oids.after),
      ])
      trees.push({ root: store.root, before, after })
    }
    return { changes, skipped, ...(trees.length > 0 && { trees }) }
  }
}

function entryKey(store: GitRoot, path: string): string {
  return `${store.root}\0${path}`
}

function startEntry(store: GitRoot, path: string, state: GitFileState): Entry {
  if (state === 'too-large') return { store, path, tooLarge: true }
  return { store, path, ...(state && { before: state, after: state }) }
}

function setAfter(entry: Entry, state: GitFileState): void {
  if (state === 'too-large') entry.tooLarge = true
  else if (state === undefined) delete entry.after
  else entry.after = state
}

/**
 * The root a file is under and its path there, links resolved (so a file tool's file and a
 * walk name the same file alike); undefined outside every root.
 */
async function locate(
  roots: readonly GitRoot[],
  file: string,
): Promise<{ store: GitRoot; path: string } | undefined> {
  const real = await realPath(file)
  for (const store of roots) {
    const inside = relative(await realPath(store.root), real)
    if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside))
      return { store, path: inside.split(sep).join('/') }
  }
  return undefined
}

/**
 * The real path `path` stands for: every link followed, a dangling one too, and a missing end
 * under its nearest existing folder (as the file tools resolve the file they write).
 */
async function realPath(path: string, depth = 0): Promise<string> {
  const real = await realpath(path).catch(() => undefined)
  if (real !== undefined) return real
  const link = await readlink(path).catch(() => undefined)
  if (link !== undefined && depth < 40) return realPath(resolve(dirname(path), link), depth + 1)
  const parent = dirname(path)
  return parent === path ? path : join(await realPath(parent, depth + 1), basename(path))
}
