// One root's shadow git store: `<dir>/<hash of the root>.git`, a repository dsh owns whose work
// tree is the root. A snapshot is `add -A` into the store's own index (so unchanged files cost
// a stat, and their objects are never written twice) then `write-tree`; the project's ignore
// rules apply (`.gitignore` files in the tree; `.git` is never entered). Files over the size
// cap are left out and named. The person's repository is never read or written: every run has
// an explicit git dir, work tree and index, and no user config (./git).
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { lstat, mkdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { git } from './git'
import type { GitRun } from './git'
import type { UndoFileState } from './types'

/** Attributes that would make a stored blob differ from the file's bytes, all turned off. */
const ATTRIBUTES = '* -text !eol -filter -ident !working-tree-encoding -diff -merge\n'

export interface GitSnapshot {
  tree: string
  /** Files left out for their size, relative to the root. */
  skipped: string[]
}

/** A change between two trees: `path` relative to the root. */
export interface GitTreeChange {
  path: string
  before?: UndoFileState
  after?: UndoFileState
}

const ABSENT_MODE = '000000'

export class GitRoot {
  readonly gitDir: string
  private readonly run: GitRun
  private ready: Promise<void> | undefined
  /** The last tree written, and the index it was written from. */
  private last: { tree: string; index: string } | undefined
  /** Files left out for their size at the last snapshot. */
  private oversized = new Set<string>()
  /** Snapshots of one root run one at a time: they share the store's index. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    program: string,
    dir: string,
    readonly root: string,
    private readonly maxFileBytes: number,
  ) {
    const hash = createHash('sha256').update(root).digest('hex').slice(0, 24)
    this.gitDir = join(dir, `${hash}.git`)
    this.run = {
      program,
      gitDir: this.gitDir,
      workTree: root,
      indexFile: join(this.gitDir, 'index'),
    }
  }

  /** The tree of the root as it is now. */
  snapshot(): Promise<GitSnapshot> {
    const next = this.queue.then(() => this.snapshotNow())
    this.queue = next.catch(() => undefined)
    return next
  }

  /** What differs between two trees, file by file (no renames: a move is a delete and a create). */
  async changes(before: string, after: string): Promise<GitTreeChange[]> {
    if (before === after) return []
    const out = await git(this.run, ['diff-tree', '-r', '-z', '--no-renames', before, after])
    const fields = out.toString('utf8').split('\0')
    const changes: GitTreeChange[] = []
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const [oldMode, newMode, oldOid, newOid] = fields[i]!.slice(1).split(' ')
      const path = fields[i + 1]!
      // A nested repository is a gitlink: its own files are not in this store.
      if (oldMode === '160000' || newMode === '160000') continue
      changes.push({
        path,
        ...(oldMode !== ABSENT_MODE && { before: { mode: oldMode!, oid: oldOid! } }),
        ...(newMode !== ABSENT_MODE && { after: { mode: newMode!, oid: newOid! } }),
      })
    }
    return changes
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

  private async snapshotNow(): Promise<GitSnapshot> {
    await this.init()
    // One walk of the tree: the files that differ from the store's index (new, changed,
    // deleted); unchanged ones cost a stat. Only those are written into the index.
    const args = ['ls-files', '-z', '-o', '-m', '--exclude-standard']
    const listed = new Set((await git(this.run, args)).toString('utf8').split('\0'))
    listed.delete('')
    // A nested repository is listed as its folder (`sub/`): its files are its own git's.
    for (const path of listed) if (path.endsWith('/')) listed.delete(path)
    const changed: string[] = []
    const skipped: string[] = []
    for (const path of listed) {
      const info = await lstat(join(this.root, path)).catch(() => undefined)
      if (info?.isFile() === true && info.size > this.maxFileBytes) skipped.push(path)
      else changed.push(path)
    }
    const fresh = skipped.filter((path) => !this.oversized.has(path))
    if (changed.length > 0) {
      const update = ['update-index', '--add', '--remove', '-z', '--stdin']
      await git(this.run, update, `${changed.join('\0')}\0`)
    }
    if (fresh.length > 0) {
      // A file that grew past the cap leaves the index: no tree holds it.
      const remove = ['update-index', '--force-remove', '-z', '--stdin']
      await git(this.run, remove, `${fresh.join('\0')}\0`)
    }
    this.oversized = new Set(skipped)
    const index = await this.indexStamp()
    if (
      this.last === undefined ||
      changed.length > 0 ||
      fresh.length > 0 ||
      index !== this.last.index
    ) {
      const tree = (await git(this.run, ['write-tree'])).toString('utf8').trim()
      this.last = { tree, index: await this.indexStamp() }
    }
    return { tree: this.last.tree, skipped }
  }

  /** The index file's size and time: another process's snapshot of this root changes it. */
  private async indexStamp(): Promise<string> {
    const info = await stat(this.run.indexFile!).catch(() => undefined)
    return info === undefined ? '' : `${info.size}:${info.mtimeMs}:${info.ino}`
  }
}
