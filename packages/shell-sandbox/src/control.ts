// The repository control folders a confined command may not write, though they lie inside a
// writable root: git's `.git`, Mercurial's `.hg`, Subversion's `.svn` and Jujutsu's `.jj`.
// What is written there runs later, outside any sandbox: a `core.fsmonitor` or an alias in
// `.git/config`, a hook in `.git/hooks`, an `[hooks]` entry in `.hg/hgrc`, the next time the
// person runs `git status` or `hg commit`. Looked for in each writable root and in every
// folder from a root down to the cwd (the repository the command most likely works in); a
// `.git` that is a file (a worktree, a submodule) is kept as it is, and so are the git dir it
// points to and that dir's common dir, when they lie inside a writable root (outside one they
// are read-only already). A repository nested deeper in a root is not looked for.
import { lstatSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { isWithin } from './bwrap-args'

/** The names of repository control folders, kept read-only inside the roots. */
export const CONTROL_FOLDERS = ['.git', '.hg', '.svn', '.jj'] as const

/** The real paths to keep read-only inside `writable` (real roots), for a command in `cwd`. */
export function controlFolders(writable: readonly string[], cwd: string): string[] {
  const found = new Set<string>()
  const inside = (path: string) => writable.some((root) => isWithin(path, root))
  for (const folder of foldersToSearch(writable, cwd)) {
    for (const name of CONTROL_FOLDERS) {
      const path = resolve(folder, name)
      const real = realOf(path)
      if (real === undefined || !inside(real)) continue
      found.add(real)
      if (name === '.git' && isFile(real)) {
        for (const target of gitDirsOf(real)) if (inside(target)) found.add(target)
      }
    }
  }
  return [...found].sort()
}

/** Each root, and the folders from the root that holds `cwd` down to `cwd`. */
function foldersToSearch(writable: readonly string[], cwd: string): string[] {
  const folders = new Set(writable)
  for (const root of writable) {
    if (!isWithin(cwd, root)) continue
    let folder = root
    for (const part of relative(root, cwd).split(sep).filter(Boolean)) {
      folder = resolve(folder, part)
      folders.add(folder)
    }
  }
  return [...folders]
}

/** The git dir a `.git` file names (`gitdir: …`), and that dir's common dir, as real paths. */
function gitDirsOf(file: string): string[] {
  const named = /^gitdir:\s*(.+?)\s*$/m.exec(readText(file) ?? '')?.[1]
  if (named === undefined) return []
  const gitDir = realOf(resolve(dirname(file), named))
  if (gitDir === undefined) return []
  const common = readText(resolve(gitDir, 'commondir'))?.trim()
  const commonDir = common ? realOf(resolve(gitDir, common)) : undefined
  return commonDir === undefined ? [gitDir] : [gitDir, commonDir]
}

function realOf(path: string): string | undefined {
  try {
    lstatSync(path)
    return realpathSync(path)
  } catch {
    return undefined // not there (the common case) or unreadable: nothing to keep
  }
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile()
  } catch {
    return false
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined // no such file: a `.git` file without a target, a git dir without commondir
  }
}
