// Which folders of a root a watch covers (./git-watch): every folder a walk enters — the root
// and each folder under it, empty ones too — but never `.git`, nor a folder git ignores or a
// nested repository (a folder holding `.git`), unless the store's index holds files under it
// (those files are walked as tracked files, ignored or not). A nested repository's own folder
// is named apart: there only its `.git` coming or going changes what a walk sees. Links are
// not followed (git keeps a link as a link). And the watch of one folder (fs.watch). Cordis-free.
import { readFileSync, watch } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { git, splitZ } from './git'
import type { GitRun } from './git'

/** Watches one folder; `onEvent(name)` per event (`undefined`: no name), `onError` once. */
export type WatchFolder = (
  folder: string,
  onEvent: (name: string | undefined) => void,
  onError: () => void,
) => { close(): void }

export interface WatchFolders {
  /** Folders to watch, relative to the root (`''` is the root), `/` separators. */
  folders: string[]
  /** Nested repositories' folders, for their `.git` alone. */
  nested: string[]
}

/**
 * The folders to watch: the whole root's, or (`under`) those of the given folders and below
 * them (a folder that is not one, or is ignored, gives none); undefined past `max` folders.
 */
export async function watchFolders(
  run: GitRun,
  root: string,
  max: number,
  under?: readonly string[],
): Promise<WatchFolders | undefined> {
  // A folder given that is now a link (to a folder) is a link to git: not entered.
  const real = await Promise.all(
    (under ?? []).map((folder) =>
      lstat(join(root, folder)).then(
        (info) => info.isDirectory(),
        () => false,
      ),
    ),
  )
  const tops = under?.filter((_folder, i) => real[i] === true)
  if (tops?.length === 0) return { folders: [], nested: [] }
  const ignored = await ignoredFolders(run, tops)
  const found: WatchFolders = { folders: [], nested: [] }
  // The root is the person's repository, never a nested one; so is a folder entered because
  // the index holds files under it.
  const start = tops ?? ['']
  let enter = start.filter((folder) => !ignored.has(folder))
  let exempt = new Set(tops === undefined ? [''] : [])
  let pending = start.filter((folder) => ignored.has(folder))
  while (enter.length > 0 || pending.length > 0) {
    const skipped = await enterFolders(root, enter, exempt, ignored, found, max)
    if (skipped === undefined) return undefined
    // A skipped folder that holds files of the index is entered after all.
    enter = await foldersHoldingFiles(run, [...pending, ...skipped])
    pending = []
    exempt = new Set(enter)
    found.nested = found.nested.filter((folder) => !exempt.has(folder))
  }
  return found
}

/**
 * Enters `start` and every folder under it (breadth first, a few at a time), into `found`;
 * returns the ignored and nested folders it did not enter, or undefined past `max` folders.
 */
async function enterFolders(
  root: string,
  start: readonly string[],
  exempt: ReadonlySet<string>,
  ignored: ReadonlySet<string>,
  found: WatchFolders,
  max: number,
): Promise<string[] | undefined> {
  const skipped: string[] = []
  let level = [...start]
  while (level.length > 0) {
    const next: string[] = []
    for (let at = 0; at < level.length; at += 32) {
      const batch = level.slice(at, at + 32)
      // A folder gone (or never one) is not watched: its parent's event told of it.
      const listed = await Promise.all(
        batch.map((folder) =>
          readdir(join(root, folder), { withFileTypes: true }).catch(() => undefined),
        ),
      )
      for (const [i, folder] of batch.entries()) {
        const entries = listed[i]
        if (entries === undefined) continue
        if (!exempt.has(folder) && entries.some((entry) => entry.name === '.git')) {
          found.nested.push(folder)
          skipped.push(folder)
          continue
        }
        found.folders.push(folder)
        if (found.folders.length > max) return undefined
        for (const entry of entries) {
          if (!entry.isDirectory() || entry.name === '.git') continue
          const path = folder === '' ? entry.name : `${folder}/${entry.name}`
          if (ignored.has(path)) skipped.push(path)
          else next.push(path)
        }
      }
    }
    level = next
  }
  return skipped
}

/**
 * The folders git ignores as a whole (of those `under`, and below): `ls-files -o -i
 * --directory` names each ignored folder it does not enter (and also folders merely full of ignored files, which `check-ignore`
 * tells apart).
 */
async function ignoredFolders(run: GitRun, under?: readonly string[]): Promise<Set<string>> {
  const listed = ['ls-files', '-z', '-o', '-i', '--exclude-standard', '--directory']
  if (under !== undefined) listed.push('--', ...under)
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

/** fs.watch on one folder, not keeping the process alive. */
export function watchFolder(
  folder: string,
  onEvent: (name: string | undefined) => void,
  onError: () => void,
): { close(): void } {
  const watcher = watch(folder, { persistent: false }, (_event, name) => onEvent(name ?? undefined))
  watcher.on('error', onError)
  watcher.unref()
  return watcher
}

/** inotify's queue length (`/proc/sys/fs/inotify/max_queued_events`), 16,384 if unknown. */
export function queueSize(): number {
  try {
    return Number.parseInt(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'), 10)
  } catch {
    // Not Linux, or no /proc: inotify's default.
    return 16_384
  }
}
