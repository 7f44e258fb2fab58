// The snapshot provider on git (./git-root): a turn's record is the tree of each root before
// its first change and after each change, and what the turn changed is the difference of the
// first and the last (`diff-tree`), commands' and delegates' changes included. Each kept
// turn's trees are held by refs under `refs/dsh/<session>/`, so objects a prune lets go of can
// be collected, and those of kept turns cannot.
import { join } from 'node:path'
import { GitRoot } from './git-root'
import type { GitSnapshot } from './git-root'
import type { UndoChange, UndoFileState, UndoRecorder, UndoStore, UndoTurn } from './types'

export interface GitUndoStoreOptions {
  /** The git program. */
  program: string
  /** Where the stores live (one per root). */
  dir: string
  maxFileBytes: number
}

export class GitUndoStore implements UndoStore {
  readonly kind = 'git'
  private readonly roots = new Map<string, GitRoot>()

  constructor(private readonly options: GitUndoStoreOptions) {}

  begin(_sessionId: string, roots: readonly string[]): UndoRecorder {
    return new GitRecorder(roots.map((root) => this.rootOf(root)))
  }

  read(_sessionId: string, root: string, state: UndoFileState): Promise<Buffer> {
    return this.rootOf(root).read(state.oid)
  }

  async retain(
    sessionId: string,
    turns: readonly UndoTurn[],
    dropped: readonly UndoTurn[],
  ): Promise<void> {
    const keep = refsByRoot(sessionId, turns)
    const gone = refsByRoot(sessionId, dropped)
    for (const root of new Set([...keep.keys(), ...gone.keys()])) {
      const store = this.rootOf(root)
      await store.keepRefs(keep.get(root) ?? new Map(), [...(gone.get(root)?.keys() ?? [])])
      if (turns.length === 0) await store.collect()
    }
  }

  private rootOf(root: string): GitRoot {
    let store = this.roots.get(root)
    if (store === undefined) {
      const { program, dir, maxFileBytes } = this.options
      store = new GitRoot(program, join(dir, 'git'), root, maxFileBytes)
      this.roots.set(root, store)
    }
    return store
  }
}

/** The refs that hold each turn's trees, by root: `refs/dsh/<session>/<turn>/{before,after}`. */
function refsByRoot(
  sessionId: string,
  turns: readonly UndoTurn[],
): Map<string, Map<string, string>> {
  const byRoot = new Map<string, Map<string, string>>()
  for (const turn of turns)
    for (const { root, before, after } of turn.trees ?? []) {
      const refs = byRoot.get(root) ?? new Map<string, string>()
      refs.set(`refs/dsh/${sessionId}/${turn.turnId}/before`, before)
      refs.set(`refs/dsh/${sessionId}/${turn.turnId}/after`, after)
      byRoot.set(root, refs)
    }
  return byRoot
}

class GitRecorder implements UndoRecorder {
  private before: Promise<GitSnapshot[]> | undefined
  private after: Promise<GitSnapshot[]> | undefined

  constructor(private readonly roots: readonly GitRoot[]) {}

  async beforeCall(): Promise<void> {
    this.before ??= this.snapshotAll()
    await this.before
  }

  async afterCall(): Promise<void> {
    const after = this.snapshotAll()
    this.after = after
    await after
  }

  async finish(): Promise<Pick<UndoTurn, 'changes' | 'skipped' | 'trees'>> {
    const before = await this.before
    const after = await this.after
    if (before === undefined || after === undefined) return { changes: [], skipped: [] }
    const changes: UndoChange[] = []
    const skipped = new Set<string>()
    const trees: NonNullable<UndoTurn['trees']> = []
    for (const [i, store] of this.roots.entries()) {
      const { root } = store
      const left = before[i]!
      const right = after[i]!
      trees.push({ root, before: left.tree, after: right.tree })
      const big = new Set([...left.skipped, ...right.skipped])
      for (const path of big) skipped.add(path)
      for (const change of await store.changes(left.tree, right.tree))
        if (!big.has(change.path)) changes.push({ root, ...change })
    }
    return { changes, skipped: [...skipped], trees }
  }

  private snapshotAll(): Promise<GitSnapshot[]> {
    return Promise.all(this.roots.map((root) => root.snapshot()))
  }
}
