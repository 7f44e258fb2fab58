// What a confined command may not write, though it lies where it may write (a root, a temp
// folder): what runs later outside any sandbox, the next time the person runs `git status`,
// opens the folder in an editor or `cd`s into it.
// - Repository control folders: git's `.git`, Mercurial's `.hg`, Subversion's `.svn`,
//   Jujutsu's `.jj` (a `core.fsmonitor` or an alias in `.git/config`, a hook, an `[hooks]`
//   entry in `.hg/hgrc`). A `.git` file (a worktree, a submodule) is kept as it is, and so is
//   the git dir it names and that dir's common dir.
// - What git reaches from each repository found (./git-reach): its `core.hooksPath` (husky's
//   `.husky`), the config files its config includes (a tracked `.gitconfig`), its submodules'
//   `.git` files and git dirs, recursively.
// - Editor and shell files that start programs on their own (EDITOR_FILES): `.zed` (context
//   servers, tasks), `.vscode` (tasks run on folder open, settings), `.idea` (run
//   configurations), `.envrc` (direnv), `.husky` (git hooks, even before `core.hooksPath` is
//   set).
// Looked for in each writable root, in every folder from a root down to the cwd, and in every
// folder above each root (a workspace opened at a subfolder of a repository: the repository's
// `.git` lies above it, and is writable when it lies in a temp folder). Only what exists when
// the command starts is kept: one the command creates (`git init`, a new `.zed`) is its own.
import { dirname, relative, resolve, sep } from 'node:path'
import { isWithin } from './bwrap-args'
import { commonDirOf, gitDirNamedBy, gitReach, isFile, realOf } from './git-reach'

/** The names of repository control folders, kept read-only inside the roots. */
export const CONTROL_FOLDERS = ['.git', '.hg', '.svn', '.jj'] as const

/** Editor and shell files that run programs when the folder is opened or entered. */
export const EDITOR_FILES = ['.zed', '.vscode', '.idea', '.envrc', '.husky'] as const

/**
 * The real paths to keep read-only for a command in `cwd` that may write `writable` (real
 * roots) and `temp` (real temp folders): those of them that lie where it may write.
 */
export function controlFolders(
  writable: readonly string[],
  cwd: string,
  temp: readonly string[] = [],
): string[] {
  const found = new Set<string>()
  const mayWrite = [...writable, ...temp]
  for (const folder of foldersToSearch(writable, cwd)) {
    for (const name of [...CONTROL_FOLDERS, ...EDITOR_FILES]) {
      const real = realOf(resolve(folder, name))
      if (real === undefined) continue
      found.add(real)
      if (name === '.git') for (const path of gitPaths(folder, real)) found.add(path)
    }
  }
  return [...found].filter((path) => mayWrite.some((root) => isWithin(path, root))).sort()
}

/** For the `.git` (real path `dotGit`) of the work tree `top`: its git dirs and their reach. */
function gitPaths(top: string, dotGit: string): string[] {
  const gitDir = isFile(dotGit) ? gitDirNamedBy(dotGit) : dotGit
  if (gitDir === undefined) return []
  const common = commonDirOf(gitDir)
  return [gitDir, ...(common === undefined ? [] : [common]), ...gitReach(top, gitDir)]
}

/** Each root, the folders from the root that holds `cwd` down to `cwd`, and those above roots. */
function foldersToSearch(writable: readonly string[], cwd: string): string[] {
  const folders = new Set(writable)
  for (const root of writable) {
    for (let up = dirname(root); ; up = dirname(up)) {
      folders.add(up)
      if (up === dirname(up)) break
    }
    if (!isWithin(cwd, root)) continue
    let folder = root
    for (const part of relative(root, cwd).split(sep).filter(Boolean)) {
      folder = resolve(folder, part)
      folders.add(folder)
    }
  }
  return [...folders]
}
