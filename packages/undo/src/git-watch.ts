// A root's watch: which of its paths may differ from the store's index, so a walk (./git-root)
// lists those alone instead of statting every file. Each folder a walk enters is watched
// (fs.watch, one inotify watch per folder, ./watch-folders); an event marks `folder/name`
// dirty. What a name cannot say makes the next walk a full one, the watches set again first:
// a folder that came or went (its files were never marked; the watches at and below it
// follow), a `.gitignore` or a `.git` that changed (what git ignores or leaves out moved),
// more events than a bound (the kernel may have dropped some), a late barrier, a watch that
// failed (all the watches follow).
// Past `maxFolders` folders, or when a watch cannot be set, the root walks as before. It
// cannot see a change made through mmap, through a hard link from outside its folders, or by
// another machine on a network filesystem. Cordis-free.
//
// The barrier: before the dirty set is read, a file with a unique name is written into a
// folder of the store's own that this process watches, and its event awaited. It holds
// because (libuv, src/unix/linux.c) every fs.watch of a loop shares one inotify fd
// (`init_inotify` keeps `loop->inotify_fd`), inotify queues an event within the syscall that
// made the change (FIFO, one queue per fd), and `uv__inotify_read` reads that queue in order
// and calls each watch's callback synchronously, event by event: once the barrier's event is
// here, so is every event of a change that ended before it was written. libuv drops the
// queue's overflow event unseen (its wd is -1, `find_watcher` finds nothing), hence the bound.
import { randomBytes } from 'node:crypto'
import { lstat, mkdir, unlink, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { GitRun } from './git'
import { queueSize, watchFolder, watchFolders } from './watch-folders'
import type { WatchFolder, WatchFolders } from './watch-folders'

export interface GitWatchOptions {
  /** The watch of one folder (default fs.watch, not keeping the process alive). */
  folder?: WatchFolder
  /** Above this many folders a root walks (default 20,000). */
  maxFolders?: number
  /** Events in two walks' windows (process-wide) above which a walk is full (default 2,000). */
  maxEvents?: number
  /** How long a barrier may take before the walk is full (default 1 s). */
  barrierMs?: number
  /** Told once per root when it falls back to walks, and why (default console.debug). */
  debug?: (line: string) => void
}

export type GitWatchState = 'off' | 'starting' | 'on' | 'walks'

/**
 * Events delivered to every watch of this process. inotify's queue (one per loop, shared by
 * all roots) drops events once `max_queued_events` (Q, 16,384 by default) wait in it. Those Q
 * are all delivered after the drop and before the barrier of the first walk begun after it
 * (first in, first out); the walk before that one began after the one before it had its
 * barrier: so the Q fall within that walk's last two windows. A walk whose last two windows
 * hold more than the bound (at most Q/4) is full; to hide a drop, the process's other watches
 * (the project catalog's few folders) would have to deliver the other three quarters.
 */
let delivered = 0

const QUEUE = queueSize()

export class GitWatch {
  state: GitWatchState = 'off'
  /** Paths (relative to the root) that may differ from the index. */
  private dirty = new Set<string>()
  /**
   * Paths the index holds or a walk listed as new since the last full walk: none is a new file
   * git ignores (the rules have not moved since: a `.gitignore` makes a walk full), so they can
   * be taken in without asking git which of them differ.
   */
  private readonly known = new Set<string>()
  /** The next walk lists everything: the folders were just watched (`fresh`), or may have
   * changed anywhere (`rewatch`: they are watched again first). */
  private fresh = false
  private rewatch = false
  private watches = new Map<string, { close(): void }>()
  private barrierWatch: { close(): void } | undefined
  private readonly barriers = new Map<string, () => void>()
  /** `delivered` at the last two barriers. */
  private marks: [number, number] = [0, 0]
  private readonly folder: WatchFolder
  private readonly maxFolders: number
  private readonly maxEvents: number
  private readonly barrierMs: number

  constructor(
    private readonly run: GitRun,
    private readonly root: string,
    /** A folder of the store's own, for barriers. */
    private readonly barrierDir: string,
    private readonly options: GitWatchOptions = {},
  ) {
    this.folder = options.folder ?? watchFolder
    this.maxFolders = options.maxFolders ?? 20_000
    this.maxEvents = Math.min(options.maxEvents ?? 2000, Math.floor(QUEUE / 4))
    this.barrierMs = options.barrierMs ?? 1000
  }

  /** Starts watching, off the caller's path; until it is on, every walk is full. */
  start(): void {
    if (this.state !== 'off') return
    this.state = 'starting'
    this.marks = [delivered, delivered]
    void this.startNow().catch((error: unknown) => this.giveUp(error))
  }

  /**
   * What the next walk lists: the dirty paths (taken: the walk owns them now), or undefined
   * for every path. Call it inside the walk, once the walk is sure to run.
   */
  async scope(): Promise<string[] | undefined> {
    if (this.state !== 'on') return undefined
    const arrived = await this.barrier()
    if (this.state !== 'on') return undefined
    const now = delivered
    const flood = now - this.marks[0] > this.maxEvents || this.dirty.size > this.maxEvents
    this.marks = [this.marks[1], now]
    const taken = [...this.dirty]
    // Events may have been lost (a flood, a late barrier, a failed walk): watch all again.
    let all = !arrived || flood || this.rewatch
    const fresh = this.fresh
    // From here on, events mark the walk after this one.
    this.dirty.clear()
    this.fresh = this.rewatch = false
    const shape = all ? [] : await this.changesShape(taken)
    if (shape === 'all') all = true
    if (!all && !fresh && shape.length === 0) return taken
    this.known.clear()
    const watched = all ? this.watchAll() : this.watchUnder(shape as string[])
    await watched.catch((error: unknown) => this.giveUp(error))
    return undefined
  }

  /** Paths a walk listed and left differing from the index: the next walk lists them again. */
  keep(paths: Iterable<string>): void {
    for (const path of paths) {
      this.dirty.add(path)
      this.known.add(path)
    }
  }

  /** Whether every one of `paths` can be taken in without a listing (see `known`). */
  knows(paths: readonly string[]): boolean {
    return paths.every((path) => this.known.has(path))
  }

  /** A walk took `held` into the index and let `dropped` (gone, or over the size cap) go. */
  tookIn(held: readonly string[], dropped: readonly string[]): void {
    for (const path of held) this.known.add(path)
    // Once out of the index, a file could be one git ignores: listed again when it is back.
    for (const path of dropped) this.known.delete(path)
  }

  /** A walk failed after it took the dirty paths: the next is full. */
  lost(): void {
    this.rewatch = true
  }

  close(): void {
    this.state = 'walks'
    this.closeAll()
  }

  private async startNow(): Promise<void> {
    await mkdir(this.barrierDir, { recursive: true })
    this.barrierWatch = this.folder(
      this.barrierDir,
      (name) => {
        delivered += 1
        if (name !== undefined) this.barriers.get(name)?.()
      },
      () => this.broken(),
    )
    await this.watchAll()
    if (this.state !== 'starting') return this.closeAll()
    // The walk before the start may have missed what changed since: the next is full.
    this.fresh = true
    this.state = 'on'
  }

  /** Watches the folders a walk enters now, and lets go of those it no longer does. */
  private async watchAll(): Promise<void> {
    const found = await watchFolders(this.run, this.root, this.maxFolders)
    if (this.state === 'walks') return
    if (found === undefined) throw new Error(`more than ${this.maxFolders} folders`)
    const want = new Set([
      ...found.folders.map((f) => `f${f}`),
      ...found.nested.map((f) => `n${f}`),
    ])
    this.unwatch((key) => !want.has(key))
    this.watchFound(found)
  }

  /** Watches what is at and below `tops` now, instead of what was. */
  private async watchUnder(tops: readonly string[]): Promise<void> {
    if (tops.length === 0) return
    const below = (folder: string) =>
      tops.some((top) => folder === top || folder.startsWith(`${top}/`))
    this.unwatch((key) => below(key.slice(1)))
    const room = this.maxFolders - this.watches.size
    const found = await watchFolders(this.run, this.root, room, tops)
    if (this.state === 'walks') return
    if (found === undefined) throw new Error(`more than ${this.maxFolders} folders`)
    this.watchFound(found)
  }

  /** Closes the watches whose key (`f` or `n` and the folder) `gone` says. */
  private unwatch(gone: (key: string) => boolean): void {
    for (const [key, handle] of this.watches)
      if (gone(key)) {
        handle.close()
        this.watches.delete(key)
      }
  }

  private watchFound(found: WatchFolders): void {
    const wanted = [
      ...found.folders.map((folder) => [folder, false] as const),
      ...found.nested.map((folder) => [folder, true] as const),
    ]
    for (const [folder, nested] of wanted) {
      const key = `${nested ? 'n' : 'f'}${folder}`
      if (this.watches.has(key)) continue
      const handle = this.watchOne(folder, nested)
      if (handle !== undefined) this.watches.set(key, handle)
    }
  }

  private watchOne(folder: string, nested: boolean): { close(): void } | undefined {
    const onEvent = (name: string | undefined) => {
      delivered += 1
      // A name that is not UTF-8 cannot be given back to git as it is (nor told a folder).
      if (name === undefined || name.includes('\ufffd')) this.rewatch = true
      else if (!nested) this.dirty.add(folder === '' ? name : `${folder}/${name}`)
      else if (name === '.git') this.rewatch = true
    }
    try {
      return this.folder(join(this.root, folder), onEvent, () => this.broken())
    } catch (error) {
      // A folder gone since it was listed: its parent's event makes the next walk rewatch.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
  }

  /**
   * What the walk must be full for: a path that rules what git sees (`all`), or the paths that
   * are or were folders (their watches follow them).
   */
  private async changesShape(paths: readonly string[]): Promise<'all' | string[]> {
    const rules = (path: string) => ['.gitignore', '.git'].includes(basename(path))
    if (paths.some(rules)) return 'all'
    const was = (path: string) => this.watches.has(`f${path}`) || this.watches.has(`n${path}`)
    const infos = await Promise.all(
      paths.map((path) => lstat(join(this.root, path)).catch(() => undefined)),
    )
    return paths.filter((path, i) => was(path) || infos[i]?.isDirectory() === true)
  }

  /** Whether every event queued before now has been delivered (see the module's comment). */
  private async barrier(): Promise<boolean> {
    const name = `barrier-${process.pid}-${randomBytes(6).toString('hex')}`
    let settle: (arrived: boolean) => void = () => {}
    const arrived = new Promise<boolean>((resolve) => (settle = resolve))
    this.barriers.set(name, () => settle(true))
    const file = join(this.barrierDir, name)
    try {
      await writeFile(file, '')
    } catch (error) {
      // Its folder gone, no barrier can be had: the root is walked from here on.
      this.barriers.delete(name)
      this.giveUp(error)
      return false
    }
    // The bound counts from the write: a busy thread pool does not make the walk full.
    const timer = setTimeout(() => settle(false), this.barrierMs)
    const ok = await arrived
    clearTimeout(timer)
    this.barriers.delete(name)
    // A barrier file left behind (the process ended first) is empty and harmless.
    void unlink(file).catch(() => undefined)
    return ok
  }

  /** A watch reported an error (its folder's watch was lost): rewatch and walk in full. */
  private broken(): void {
    this.rewatch = true
  }

  private giveUp(error: unknown): void {
    this.closeAll()
    if (this.state === 'walks') return
    this.state = 'walks'
    const why = error instanceof Error ? error.message : String(error)
    const debug = this.options.debug ?? ((line: string) => console.debug(line))
    debug(`undo: ${this.root} is walked at each snapshot, not watched (${why})`)
  }

  private closeAll(): void {
    for (const handle of this.watches.values()) handle.close()
    this.watches.clear()
    this.barrierWatch?.close()
    this.barrierWatch = undefined
    this.dirty.clear()
  }
}
