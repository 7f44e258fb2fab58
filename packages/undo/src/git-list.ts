// A walk's listing (./git-root): what differs from the store's index — tracked files changed or
// gone (`ls-files -m`, with their state in the index where git can give it) and new files
// (`ls-files -o`, the project's ignore rules applied). Over the whole root, two runs side by
// side; over given paths (literal pathspecs), one run that tags each entry. Cordis-free.
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
  if (paths !== undefined) return listPaths(run, paths)
  const modified = ['ls-files', '-z', '-m']
  if (format) modified.push('--format=%(objectmode) %(objectname) %(path)')
  const [changed, added] = await Promise.all([
    git(run, modified),
    git(run, ['ls-files', '-z', '-o', '--exclude-standard']),
  ])
  const tracked = new Map<string, UndoFileState | undefined>()
  for (const entry of splitZ(changed)) {
    if (!format) tracked.set(entry, undefined)
    else {
      const [mode, oid] = entry.split(' ', 2)
      tracked.set(entry.slice(mode!.length + oid!.length + 2), { mode: mode!, oid: oid! })
    }
  }
  return { tracked, others: othersOf(splitZ(added), tracked) }
}

/**
 * `paths` alone, in one run: `-t` tags each entry — `?` a new file, `C` a tracked one changed
 * or gone, `H` any tracked one (`-s` lists them all: passed over) — and `-s` gives a tracked
 * file's state in the index (`<mode> <oid> <stage>\t<path>`), from any git.
 */
async function listPaths(run: GitRun, paths: readonly string[]): Promise<GitListing> {
  const args = ['ls-files', '-z', '-t', '-s', '-m', '-o', '--exclude-standard', '--', ...paths]
  const tracked = new Map<string, UndoFileState | undefined>()
  const added: string[] = []
  for (const entry of splitZ(await git(run, args))) {
    const rest = entry.slice(2)
    if (entry.startsWith('? ')) added.push(rest)
    else if (entry.startsWith('C ')) {
      const tab = rest.indexOf('\t')
      const [mode, oid] = rest.slice(0, tab).split(' ')
      tracked.set(rest.slice(tab + 1), { mode: mode!, oid: oid! })
    }
  }
  return { tracked, others: othersOf(added, tracked) }
}

/** New files: not a nested repository, listed as its folder (`sub/`: its files are its git's). */
function othersOf(listed: readonly string[], tracked: ReadonlyMap<string, unknown>): string[] {
  return listed.filter((path) => !path.endsWith('/') && !tracked.has(path))
}
