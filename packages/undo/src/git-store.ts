// The snapshot provider on git (./git-root): a turn's record is, for each file it changed, the
// file's state before the turn's first change to it and after its last, commands' and
// delegates' changes included (./git-recorder). Each kept turn's blobs are held by two trees
// (before, after) and those by refs under `refs/dsh/<session>/`, so objects a prune lets go of
// can be collected, and those of kept turns cannot. Each root is watched between walks
// (./git-watch) until the store closes.
import { join } from 'node:path'
import { gitVersion } from './git'
import { GitRecorder } from './git-recorder'
import { GitRoot } from './git-root'
import type { GitWatchOptions, GitWatchState } from './git-watch'
import type { UndoFileState, UndoRecorder, UndoStore, UndoTurn } from './types'

export interface GitUndoStoreOptions {
  /** The git program. */
  program: string
  /** Its version (`git --version`), when known; else it is asked once, at the first snapshot. */
  version?: string
  /** Where the stores live (one per root). */
  dir: string
  maxFileBytes: number
  /** How roots are watched between walks (default: each folder, fs.watch); `false`: not. */
  watch?: GitWatchOptions | false
}

export class GitUndoStore implements UndoStore {
  readonly kind = 'git'
  private readonly roots = new Map<string, GitRoot>()
  private formats: Promise<boolean> | undefined

  constructor(private readonly options: GitUndoStoreOptions) {}

  begin(_sessionId: string, roots: readonly string[]): UndoRecorder {
    return new GitRecorder(roots.map((root) => this.rootOf(root)))
  }

  /** Whether `root`'s walks list what its watch marked (`on`) or everything. */
  watchState(root: string): GitWatchState {
    return this.rootOf(root).watchState
  }

  /** Stops watching every root (later walks are full). */
  close(): void {
    for (const store of this.roots.values()) store.close()
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
      const { program, version, dir, maxFileBytes, watch } = this.options
      this.formats ??= Promise.resolve(version ?? gitVersion(program)).then((known) =>
        atLeast(known ?? '0', [2, 38]),
      )
      store = new GitRoot(program, join(dir, 'git'), root, maxFileBytes, this.formats, watch)
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

/** `version` (`2.39.5`) is at least `want` ([2, 38]). */
export function atLeast(version: string, want: readonly number[]): boolean {
  const have = version.split('.').map((part) => Number.parseInt(part, 10) || 0)
  for (const [i, part] of want.entries()) {
    const mine = have[i] ?? 0
    if (mine !== part) return mine > part
  }
  return true
}
