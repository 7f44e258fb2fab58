// A walk's listing (./git-root): what differs from the store's index, by two runs side by side —
// tracked files changed or gone (`ls-files -m`, with their state in the index where git can
// give it) and new files (`ls-files -o`, the project's ignore rules applied) — over the whole
// root, or over given paths alone (literal pathspecs). Cordis-free.
import { git, splitZ } from './git'
import type { GitRun } from './git'
import type { UndoFileState } from './types'

export interface GitListing {
  /** Changed or deleted tracked files, each with its state in the index when `format` asked. */
  tracked: Map<string, UndoFileState | undefined>
  /** New files. */
  others: string[]
}

/** Lists `paths` (every path when undefined); `format`: git (2.38+) gives the index's states. */
export async function listChanged(
  run: GitRun,
  format: boolean,
  paths: readonly string[] | undefined,
): Promise<GitListing> {
  const modified = ['ls-files', '-z', '-m']
  if (format) modified.push('--format=%(objectmode) %(objectname) %(path)')
  const only = paths === undefined ? [] : ['--', ...paths]
  const [changed, added] = await Promise.all([
    git(run, [...modified, ...only]),
    git(run, ['ls-files', '-z', '-o', '--exclude-standard', ...only]),
  ])
  const tracked = new Map<string, UndoFileState | undefined>()
  for (const entry of splitZ(changed)) {
    if (!format) tracked.set(entry, undefined)
    else {
      const [mode, oid] = entry.split(' ', 2)
      tracked.set(entry.slice(mode!.length + oid!.length + 2), { mode: mode!, oid: oid! })
    }
  }
  // A nested repository is listed as its folder (`sub/`): its files are its own git's.
  const others = splitZ(added).filter((path) => !path.endsWith('/') && !tracked.has(path))
  return { tracked, others }
}
