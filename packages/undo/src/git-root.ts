// One root's shadow git store: `<dir>/<hash of the root>.git`, a repository dsh owns whose work
// tree is the root. A snapshot is `add -A` into the store's own index (so unchanged files cost
// a stat, and their objects are never written twice) then `write-tree`; the project's ignore
// rules apply (`.gitignore` files in the tree; `.git` is never entered). Files over the size
// cap are left out and named. The person's repository is never read or written: every run has
// an explicit git dir, work tree and index, and no user config (./git).
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { lstat, mkdir, writeFile } from 'node:fs/promises'
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

  /** Points refs at trees (so they outlive a prune) and deletes the rest under `prefix`. */
  async keepRefs(prefix: string, refs: ReadonlyMap<string, string>): Promise<void> {
    await this.init()
    const listed = await git(this.run, ['for-each-ref', '--format=%(refname)', prefix])
    const lines: string[] = []
    for (const name of listed.toString('utf8').split('\n'))
      if (name !== '' && !refs.has(name)) lines.push(`delete ${name}`)
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
    const skipped = await this.oversized()
    const excludes = skipped.map((path) => `:(exclude,literal)${path}`)
    const add = ['add', '-A', '--ignore-errors', '--', '.', ...excludes]
    await git(this.run, add).catch((error: unknown) => {
      // --ignore-errors: an unreadable file is left out and git says so; anything else throws.
      if (!(error instanceof Error && /unable to index|failed to insert/.test(error.message)))
        throw error
    })
    if (skipped.length > 0) {
      const input = `${skipped.join('\0')}\0`
      await git(this.run, ['update-index', '--force-remove', '-z', '--stdin'], input)
    }
    const tree = (await git(this.run, ['write-tree'])).toString('utf8').trim()
    return { tree, skipped }
  }

  /** New or changed files larger than the cap (git lists only those that differ from the index). */
  private async oversized(): Promise<string[]> {
    const args = ['ls-files', '-z', '-o', '-m', '--exclude-standard']
    const listed = (await git(this.run, args)).toString('utf8').split('\0')
    const big: string[] = []
    for (const path of new Set(listed)) {
      if (path === '') continue
      const info = await lstat(join(this.root, path)).catch(() => undefined)
      if (info?.isFile() && info.size > this.maxFileBytes) big.push(path)
    }
    return big
  }
}
