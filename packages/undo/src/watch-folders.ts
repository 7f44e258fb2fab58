// Which folders of a root a watch covers (./git-watch): every folder a walk enters — the root
// and each folder under it, empty ones too — but never `.git`, nor a folder git ignores or a
// nested repository (a folder holding `.git`), unless the store's index holds files under it
// (those files are walked as tracked files, ignored or not). A nested repository's own folder
// is named apart: there only its `.git` coming or going changes what a walk sees. Links are
// not followed (git keeps a link as a link). Cordis-free.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { git, splitZ } from './git'
import type { GitRun } from './git'

export interface WatchFolders {
  /** Folders to watch, relative to the root (`''` is the root), `/` separators. */
  folders: string[]
  /** Nested repositories' folders, for their `.git` alone. */
  nested: string[]
}

/** The folders to watch; undefined when there are more than `max`. */
export async function watchFolders(
  run: GitRun,
  root: string,
  max: number,
): Promise<WatchFolders | undefined> {
  const ignored = await ignoredFolders(run)
  const found: WatchFolders = { folders: [], nested: [] }
  let enter = ['']
  while (enter.length > 0) {
    const skipped = await enterFolders(root, enter, ignored, found, max)
    if (skipped === undefined) return undefined
    // A skipped folder that holds files of the index is entered after all.
    enter = await foldersHoldingFiles(run, skipped)
    found.nested = found.nested.filter((folder) => !enter.includes(folder))
  }
  return found
}

/**
 * Enters `start` and every folder under it (breadth first), into `found`; returns the ignored
 * and nested folders it did not enter, or undefined past `max` folders.
 */
async function enterFolders(
  root: string,
  start: readonly string[],
  ignored: ReadonlySet<string>,
  found: WatchFolders,
  max: number,
): Promise<string[] | undefined> {
  const skipped: string[] = []
  let level = [...start]
  while (level.length > 0) {
    const next: string[] = []
    for (const folder of level) {
      found.folders.push(folder)
      if (found.folders.length > max) return undefined
      // A folder gone since it was listed is not watched: its parent saw it go.
      const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => [])
      for (const entry of entries) {
        if (!entry.isDirectory() || entry.name === '.git') continue
        const path = folder === '' ? entry.name : `${folder}/${entry.name}`
        if (ignored.has(path)) skipped.push(path)
        else next.push(path)
      }
    }
    level = []
    for (const folder of next) {
      const entries = await readdir(join(root, folder)).catch((): string[] => [])
      if (!entries.includes('.git')) level.push(folder)
      else {
        found.nested.push(folder)
        skipped.push(folder)
      }
    }
  }
  return skipped
}

/**
 * The folders git ignores as a whole: `ls-files -o -i --directory` names each ignored folder
 * it does not enter (and also folders merely full of ignored files, which `check-ignore`
 * tells apart).
 */
async function ignoredFolders(run: GitRun): Promise<Set<string>> {
  const listed = ['ls-files', '-z', '-o', '-i', '--exclude-standard', '--directory']
  const folders = splitZ(await git(run, listed))
    .filter((path) => path.endsWith('/'))
    .map((path) => path.slice(0, -1))
  if (folders.length === 0) return new Set()
  const check = ['check-ignore', '-z', '--stdin']
  const input = folders.map((folder) => `./${folder}\0`).join('')
  const out = await git(run, check, input, false).catch((error: unknown) => {
    // check-ignore exits 1 when none of the paths is ignored.
    if (error instanceof Error && error.message.includes('failed (1)')) return Buffer.alloc(0)
    throw error
  })
  return new Set(splitZ(out).map((path) => path.replace(/^\.\//, '')))
}

/** Those of `folders` under which the store's index holds a file. */
async function foldersHoldingFiles(run: GitRun, folders: readonly string[]): Promise<string[]> {
  if (folders.length === 0) return []
  const files = splitZ(await git(run, ['ls-files', '-z', '--', ...folders]))
  return folders.filter((folder) => files.some((file) => file.startsWith(`${folder}/`)))
}
