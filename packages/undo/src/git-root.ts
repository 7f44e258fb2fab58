// One root's shadow git store: `<dir>/<hash of the root>.git`, a repository dsh owns whose work
// tree is the root and whose index is what the store last saw of the root's files, so an
// unchanged file costs a stat. Two kinds of snapshot:
// - a walk (`walk`): `ls-files -m` beside `ls-files -o` lists what differs from the index (new,
//   changed and deleted files; the project's ignore rules apply, `.git` is never entered, a
//   nested repository is left out) and `update-index` takes those in. A walk that records also
//   gives each listed file's state in the index before it (`ls-files -s`) and now (its blob).
//   Once the root is watched (./git-watch), a walk lists only the paths that may have changed
//   since (none: no git run at all); what the watch cannot vouch for is walked in full.
// - one file's state (`fileState`), for a file tool's call: no walk, no git run.
// Blobs are written here (./git-objects). Files over the size cap are left out and named. The
// person's repository is never read or written: every run has an explicit git dir, work tree
// and index, and no user config (./git).
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { lstat, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readDiskFile } from './disk'
import { beyondLinks } from './links'
import { git, splitZ } from './git'
import type { GitRun } from './git'
import { listChanged } from './git-list'
import { writeHolderTree, writeObject } from './git-objects'
import { GitWatch } from './git-watch'
import type { GitWatchOptions, GitWatchState } from './git-watch'
import type { UndoFileState } from './types'

/** Attributes that would make a stored blob differ from the file's bytes, all turned off. */
const ATTRIBUTES = '* -text !eol -filter -ident !working-tree-encoding -diff -merge\n'

/** Above this many paths, `ls-files -s` lists the whole index rather than take them as args. */
const MAX_PATHSPECS = 1000

/** A file as a snapshot saw it: kept, too large to keep, or absent (or not a file). */
export type GitFileState = UndoFileState | 'too-large' | undefined

/** A file a walk found changed since the index: `path` relative to the root. */
export interface GitWalkChange {
  path: string
  before?: UndoFileState
  after?: UndoFileState
}

export interface GitWalk {
  /** Filled only by a walk that records. */
  changes: GitWalkChange[]
  /** Files over the size cap the walk found changed (left out), relative to the root. */
  oversized: string[]
}

export class GitRoot {
  readonly gitDir: string
  private readonly run: GitRun
  private ready: Promise<void> | undefined
  /** Files over the size cap at the last walk, each with its size and time then. */
  private oversized = new Map<string, string>()
  /** Walks of one root run one at a time: they share the store's index. */
  private queue: Promise<unknown> = Promise.resolve()
  private readonly watch: GitWatch | undefined

  constructor(
    program: string,
    dir: string,
    readonly root: string,
    private readonly maxFileBytes: number,
    /** git can give `ls-files -m` in a format of our own (2.38 and later). */
    private readonly formats: Promise<boolean>,
    /** How the root is watched between walks; `false`: every walk is full. */
    watch: GitWatchOptions | false = {},
  ) {
    const hash = createHash('sha256').update(root).digest('hex').slice(0, 24)
    this.gitDir = join(dir, `${hash}.git`)
    this.run = {
      program,
      gitDir: this.gitDir,
      workTree: root,
      indexFile: join(this.gitDir, 'index'),
    }
    if (watch !== false)
      this.watch = new GitWatch(this.run, root, join(this.gitDir, 'watch'), watch)
  }

  /** Whether walks list what the watch marked (`on`) or everything. */
  get watchState(): GitWatchState {
    return this.watch?.state ?? 'walks'
  }

  /** Stops watching: later walks are full. */
  close(): void {
    this.watch?.close()
  }

  /**
   * Brings the index up to the root as it is now; `record` also says what each file it took in
   * was before (in the index) and is now.
   */
  walk(record: boolean): Promise<GitWalk> {
    const next = this.queue.then(() => this.walkNow(record))
    this.queue = next.catch(() => undefined)
    return next
  }

  /** One file's state now (`path` relative to the root), its bytes kept. */
  async fileState(path: string): Promise<GitFileState> {
    await this.init()
    const file = join(this.root, ...path.split('/'))
    const info = await lstat(file).catch(() => undefined)
    if (info?.isFile() === true && info.size > this.maxFileBytes) return 'too-large'
    const found = await readDiskFile(file)
    if (found === undefined || found === 'other') return undefined
    if (found.bytes.length > this.maxFileBytes) return 'too-large'
    return { mode: found.mode, oid: await writeObject(this.gitDir, 'blob', found.bytes) }
  }

  /** A tree that holds `oids`, for a ref to keep them. */
  async holderTree(oids: readonly string[]): Promise<string> {
    await this.init()
    return writeHolderTree(this.gitDir, oids)
  }

  /** A blob's bytes. */
  async read(oid: string): Promise<Buffer> {
    await this.init()
    return git(this.run, ['cat-file', 'blob', oid])
  }

  /** Points refs at trees (so they outlive a collection) and deletes `gone`. */
  async keepRefs(refs: ReadonlyMap<string, string>, gone: readonly string[]): Promise<void> {
    await this.init()
    const lines = gone.filter((name) => !refs.has(name)).map((name) => `delete ${name}`)
    for (const [name, tree] of refs) lines.push(`update ${name} ${tree}`)
    if (lines.length > 0) await git(this.run, ['update-ref', '--stdin'], `${lines.join('\n')}\n`)
  }

  /**
   * Collects objects no ref and no index entry holds, once they are an hour old (a snapshot of
   * another process may have written them and not yet named them).
   */
  async collect(): Promise<void> {
    await this.init()
    await git(this.run, ['prune', '--expire=1.hour.ago'])
  }

  private init(): Promise<void> {
    this.ready ??= this.initNow().catch((error: unknown) => {
      this.ready = undefined
      throw error
    })
    return this.ready
  }

  private async initNow(): Promise<void> {
    if (!existsSync(join(this.gitDir, 'HEAD'))) {
      await mkdir(this.gitDir, { recursive: true })
      await git({ ...this.run, workTree: undefined, indexFile: undefined }, [
        'init',
        '-q',
        '--bare',
      ])
    }
    await mkdir(join(this.gitDir, 'info'), { recursive: true })
    await writeFile(join(this.gitDir, 'info', 'exclude'), '.git\n')
    await writeFile(join(this.gitDir, 'info', 'attributes'), ATTRIBUTES)
  }

  private async walkNow(record: boolean): Promise<GitWalk> {
    await this.init()
    const paths = await this.watch?.scope()
    if (paths?.length === 0) return { changes: [], oversized: [] }
    try {
      const walk = await this.walkPaths(record, paths)
      // The index is up to the disk: from here, the watch can tell what changes.
      if (paths === undefined) this.watch?.start()
      return walk
    } catch (error) {
      this.watch?.lost()
      throw error
    }
  }

  /** A walk over `paths` (all when undefined). */
  private async walkPaths(record: boolean, paths: string[] | undefined): Promise<GitWalk> {
    const format = record && (await this.formats)
    // Paths the watch knows git does not ignore are taken in as they are: no listing.
    const known = !record && paths !== undefined && this.watch?.knows(paths) === true
    const { tracked, others } = known
      ? { tracked: new Map<string, UndoFileState | undefined>(), others: paths }
      : await listChanged(this.run, format, paths)
    // A walk that records leaves what it listed differing from the index.
    if (record) this.watch?.keep([...tracked.keys(), ...others])
    const small: string[] = []
    const gone: string[] = []
    const large = new Map<string, string>()
    const linked = await beyondLinks(this.root, [...tracked.keys(), ...others])
    for (const path of [...tracked.keys(), ...others]) {
      const info = linked.has(path)
        ? undefined
        : await lstat(join(this.root, path)).catch(() => undefined)
      if (info?.isFile() === true && info.size > this.maxFileBytes)
        large.set(path, `${info.size}:${info.mtimeMs}`)
      else small.push(path)
      if (info === undefined) gone.push(path)
    }
    const last = this.oversized
    this.oversized = paths === undefined ? large : carried(last, paths, large)
    const oversized = [...large].filter(([path, seen]) => last.get(path) !== seen)
    const left = oversized.map(([path]) => path)
    if (!record) {
      // A file over the cap leaves the index: no snapshot holds it.
      const tooLarge = [...large.keys()]
      await this.takeIn(
        small.filter((path) => !linked.has(path)),
        [...tooLarge.filter((path) => known || tracked.has(path)), ...linked],
      )
      this.watch?.tookIn(small, [...gone, ...tooLarge])
      return { changes: [], oversized: left }
    }
    // The index is left as it was: the next walk that takes files in takes these in too, and
    // a walk before that lists them again, with the same state before.
    const before = await this.indexStates(small, tracked)
    const after = await this.statesOf(small.filter((path) => !linked.has(path)))
    const changes: GitWalkChange[] = []
    for (const path of small) {
      const now = after.get(path)
      // A file over the cap at the last walk has no state kept from before it: left out too.
      if (now === 'too-large' || last.has(path)) left.push(path)
      else {
        const was = before.get(path)
        changes.push({ path, ...(was && { before: was }), ...(now && { after: now }) })
      }
    }
    return { changes, oversized: left }
  }

  /**
   * Lets `leave` (too large, beyond a link) go from the index, then takes `paths` in as they are
   * now; a path that was a folder's and is now a file (or the other way) replaces what it meets.
   */
  private async takeIn(paths: readonly string[], leave: readonly string[]): Promise<void> {
    if (leave.length > 0) {
      const remove = ['update-index', '--force-remove', '-z', '--stdin']
      await git(this.run, remove, `${leave.join('\0')}\0`)
    }
    if (paths.length > 0) {
      const update = ['update-index', '--add', '--remove', '--replace', '-z', '--stdin']
      await git(this.run, update, `${paths.join('\0')}\0`)
    }
  }

  /**
   * The index's state of each of `paths` it holds: as the walk listed it, or (from a git that
   * cannot list it so) as `ls-files -s` gives it.
   */
  private async indexStates(
    paths: readonly string[],
    tracked: ReadonlyMap<string, UndoFileState | undefined>,
  ): Promise<Map<string, UndoFileState>> {
    const states = new Map<string, UndoFileState>()
    const ask = paths.filter((path) => tracked.has(path) && tracked.get(path) === undefined)
    for (const path of paths) {
      const known = tracked.get(path)
      if (known !== undefined) states.set(path, known)
    }
    if (ask.length === 0) return states
    const args = ['ls-files', '-s', '-z']
    if (ask.length <= MAX_PATHSPECS) args.push('--', ...ask)
    for (const entry of splitZ(await git(this.run, args))) {
      const tab = entry.indexOf('\t')
      const [mode, oid] = entry.slice(0, tab).split(' ')
      if (tab !== -1) states.set(entry.slice(tab + 1), { mode: mode!, oid: oid! })
    }
    return states
  }

  /** Each file's state now, a few read at a time. */
  private async statesOf(paths: readonly string[]): Promise<Map<string, GitFileState>> {
    const states = new Map<string, GitFileState>()
    for (let at = 0; at < paths.length; at += 16) {
      const batch = paths.slice(at, at + 16)
      const found = await Promise.all(batch.map((path) => this.fileState(path)))
      batch.forEach((path, i) => states.set(path, found[i]))
    }
    return states
  }
}

/** The oversized files after a walk over `paths`: those it found, and the others as they were. */
function carried(
  last: ReadonlyMap<string, string>,
  paths: readonly string[],
  found: ReadonlyMap<string, string>,
): Map<string, string> {
  const walked = new Set(paths)
  const kept = [...last].filter(([path]) => !walked.has(path))
  return new Map([...kept, ...found])
}
