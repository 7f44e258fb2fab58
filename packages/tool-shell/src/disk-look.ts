// What a command meets on disk, looked at before it runs unasked because it only reads. The
// classifier (./classify) judges the text; the disk decides what that text reaches:
// - the files read, with `..` taken physically, and what the globs of a reader match
//   (./physical-path): the scope the permission layer judges against the roots, so a glob that
//   matches a link out of the workspace is a read outside;
// - a file read (named, or matched by a glob) that is neither a regular file nor a folder (a
//   FIFO, a socket, a device but /dev/null) is asked: opening one may wait forever;
// - a program is found on PATH as the shell finds it: one found in a folder inside the roots
//   (a workspace `bin/` on PATH, a relative entry) is the workspace's code, asked;
// - a git part that would use another repository than the workspace's own (a `-C` into a
//   nested repository or a fixture, which git finds by walking up from where it runs) is
//   asked: that repository's config may name filter drivers, which nothing can switch off.
// Local disk, read only; bounded by GLOB_BUDGET for globs.
import { constants } from 'node:fs'
import { access, lstat, readFile, realpath, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { CommandPart } from '@deepseek-ai/dsh-shell-policy'
import { expandGlob, GLOB_BUDGET, physicalPath } from './physical-path'

export interface DiskView {
  /** The session workspace, where the command runs. */
  cwd: string
  /** The session's roots. */
  roots: readonly string[]
  /** The PATH the command's shell searches. */
  searchPath: string | undefined
}

export interface DiskLook {
  /** Every file the command's parts read, resolved physically (absolute). */
  scope: string[]
  /** Why a command the classifier found read-only is asked after all. */
  asks?: string
}

/** Bash runs these itself, whatever PATH holds. */
const BUILTINS = new Set(['echo', 'printf', 'test', '[', 'true', 'false', 'pwd'])

/** The files `parts` read; with `readOnly`, also what would make the command asked. */
export async function lookAtDisk(
  parts: readonly CommandPart[],
  view: DiskView,
  readOnly: boolean,
): Promise<DiskLook> {
  const files = parts.flatMap((part) => part.files)
  const named = await Promise.all(files.map((file) => physicalPath(view.cwd, file)))
  if (!readOnly) return { scope: named }
  const matched = await expandAll(
    parts.flatMap((part) => part.globs ?? []),
    view.cwd,
  )
  const scope = [...named, ...(matched ?? [])]
  const reasons = await Promise.all([
    matched === undefined ? 'a glob matches too many files to look at' : undefined,
    specialFile(scope),
    programReason(parts, view),
    repositoryReason(parts, view.cwd),
  ])
  const asks = reasons.find((reason) => reason !== undefined)
  return { scope, ...(asks !== undefined && { asks }) }
}

/** What the globs match, together; `undefined`: more than GLOB_BUDGET entries to look at. */
async function expandAll(globs: readonly string[], cwd: string): Promise<string[] | undefined> {
  const matched: string[] = []
  for (const glob of globs) {
    const matches = await expandGlob(cwd, glob)
    if (matches === undefined || matched.length + matches.length > GLOB_BUDGET) return undefined
    matched.push(...matches)
  }
  return matched
}

/** The first of `paths` that is neither a regular file nor a folder, said in words. */
async function specialFile(paths: readonly string[]): Promise<string | undefined> {
  const kinds = await Promise.all(paths.map(async (path) => ((await isSpecial(path)) ? path : '')))
  const special = kinds.find((path) => path !== '')
  return special && `${special} is not a regular file or a folder: reading it may never end`
}

async function isSpecial(path: string): Promise<boolean> {
  if (path === '/dev/null') return false
  try {
    const info = await stat(path)
    return !info.isFile() && !info.isDirectory()
  } catch {
    // Missing or out of reach: the command's own open fails the same way, and reads nothing.
    return false
  }
}

async function programReason(
  parts: readonly CommandPart[],
  view: DiskView,
): Promise<string | undefined> {
  const programs = new Set(parts.flatMap((part) => part.program ?? []))
  const roots = await realPaths(view.roots)
  for (const program of programs) {
    if (BUILTINS.has(program)) continue
    const found = await onSearchPath(program, view)
    if (found === undefined) continue
    const places = await realPaths([dirname(found), found])
    if (places.some((place) => roots.some((root) => isWithin(root, place)))) {
      return `${program} is found at ${found}, inside the workspace`
    }
  }
  return undefined
}

/** Where the shell finds `program` on PATH (a relative entry is relative to the workspace). */
async function onSearchPath(program: string, view: DiskView): Promise<string | undefined> {
  for (const entry of (view.searchPath ?? '').split(':')) {
    const file = join(resolve(view.cwd, entry === '' ? '.' : entry), program)
    try {
      await access(file, constants.X_OK)
      if ((await stat(file)).isFile()) return file
    } catch {
      // Not here: the shell looks in the next entry too.
    }
  }
  return undefined
}

async function repositoryReason(
  parts: readonly CommandPart[],
  cwd: string,
): Promise<string | undefined> {
  const folders = parts.flatMap((part) => (part.git?.folder === undefined ? [] : [part.git.folder]))
  if (folders.length === 0) return undefined
  const own = await repositoryOf(cwd)
  for (const folder of folders) {
    const used = await repositoryOf(await physicalPath(cwd, folder))
    if (used !== own)
      return `git -C ${folder} uses another repository (${used}) than the workspace's`
  }
  return undefined
}

/**
 * The git directory git uses when run in `folder`: walking up, a `.git` (a folder, or a file
 * naming one), or a folder that is itself a bare repository; `undefined`: none.
 */
export async function repositoryOf(folder: string): Promise<string | undefined> {
  let dir = await realOrSelf(folder)
  for (;;) {
    const dotGit = join(dir, '.git')
    const info = await lstat(dotGit).catch(() => undefined)
    if (info?.isFile() === true) {
      const named = /^gitdir: *(.+)$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''))
      return realOrSelf(named === null ? dotGit : resolve(dir, (named[1] as string).trim()))
    }
    if (info !== undefined) return realOrSelf(dotGit)
    if (await looksBare(dir)) return dir
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

async function looksBare(dir: string): Promise<boolean> {
  const [head, objects, refs] = await Promise.all(
    ['HEAD', 'objects', 'refs'].map((name) => stat(join(dir, name)).catch(() => undefined)),
  )
  return head?.isFile() === true && objects?.isDirectory() === true && refs?.isDirectory() === true
}

async function realOrSelf(path: string): Promise<string> {
  return realpath(path).catch(() => path)
}

async function realPaths(paths: readonly string[]): Promise<string[]> {
  return Promise.all(paths.map(realOrSelf))
}

function isWithin(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`)
}
