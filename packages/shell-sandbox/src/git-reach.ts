// What git will run or take as configuration for one repository, beyond its git dir: the
// `core.hooksPath` folder (husky's `.husky`, a `.githooks`), every config file included from
// its config (`[include]` / `[includeIf]` `path`, a tracked `.gitconfig` among them, and what
// those include), and its submodules (from `.gitmodules`): each one's `.git` (a file naming its
// git dir, or a folder), that git dir and, in turn, what that repository reaches. A sandboxed
// command that could write any of these would have the person's next host `git status` run
// what it planted. Read from the disk as it is just before the command; bounded in depth.
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, resolve } from 'node:path'

const MAX_DEPTH = 4

/**
 * The real paths git reaches from the repository whose work tree is `top` (`undefined`: bare)
 * and whose git dir is `gitDir` (a real path), the git dir not included.
 */
export function gitReach(top: string | undefined, gitDir: string, depth = 0): string[] {
  const found = new Set<string>()
  const common = commonDirOf(gitDir)
  for (const dir of common === undefined ? [gitDir] : [gitDir, common]) {
    configReach(resolve(dir, 'config'), top, found, 0)
  }
  if (top !== undefined && depth < MAX_DEPTH) {
    for (const path of submodulePaths(top)) {
      const dotGit = realOf(resolve(top, path, '.git'))
      if (dotGit === undefined) continue
      found.add(dotGit)
      const subGitDir = isFile(dotGit) ? gitDirNamedBy(dotGit) : dotGit
      if (subGitDir === undefined) continue
      found.add(subGitDir)
      for (const reached of gitReach(resolve(top, path), subGitDir, depth + 1)) found.add(reached)
    }
  }
  return [...found]
}

/** The git dir a `.git` file names (`gitdir: …`), as a real path. */
export function gitDirNamedBy(file: string): string | undefined {
  const named = /^gitdir:\s*(.+?)\s*$/m.exec(readText(file) ?? '')?.[1]
  return named === undefined ? undefined : realOf(resolve(dirname(file), named))
}

/** The common dir a worktree's git dir names (`commondir`), as a real path. */
export function commonDirOf(gitDir: string): string | undefined {
  const common = readText(resolve(gitDir, 'commondir'))?.trim()
  return common ? realOf(resolve(gitDir, common)) : undefined
}

/** A config file's hooks folder and included files, recursively, into `found`. */
function configReach(config: string, top: string | undefined, found: Set<string>, depth: number) {
  const text = readText(config)
  if (text === undefined || depth > MAX_DEPTH) return
  let section = ''
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    const header = /^\[\s*([A-Za-z0-9.-]+)/.exec(line)
    if (header !== null) section = (header[1] as string).toLowerCase()
    const entry = /^([A-Za-z0-9-]+)\s*=\s*(.*?)\s*$/.exec(line.replace(/^\[[^\]]*\]\s*/, ''))
    if (entry === null) continue
    const key = (entry[1] as string).toLowerCase()
    const value = unquote(entry[2] as string)
    if (section === 'core' && key === 'hookspath' && value !== '') {
      const hooks = realOf(expand(value, top ?? dirname(config)))
      if (hooks !== undefined) found.add(hooks)
    } else if ((section === 'include' || section === 'includeif') && key === 'path') {
      const included = realOf(expand(value, dirname(config)))
      if (included === undefined || found.has(included)) continue
      found.add(included)
      configReach(included, top, found, depth + 1)
    }
  }
}

/** The `path = …` entries of `top/.gitmodules`. */
function submodulePaths(top: string): string[] {
  const text = readText(resolve(top, '.gitmodules')) ?? ''
  return [...text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)].map((match) =>
    unquote(match[1] as string),
  )
}

function expand(value: string, base: string): string {
  if (value.startsWith('~/')) return resolve(homedir(), value.slice(2))
  return isAbsolute(value) ? value : resolve(base, value)
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value
}

export function realOf(path: string): string | undefined {
  try {
    lstatSync(path)
    return realpathSync(path)
  } catch {
    return undefined // not there (the common case) or unreadable: nothing to keep
  }
}

export function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile()
  } catch {
    return false
  }
}

function readText(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined
  } catch {
    return undefined // no such file: a `.git` file without a target, a git dir without commondir
  }
}
