// One file held for a change: its directory opened from the judged place (directory.ts), the
// lock between processes taken (lock.ts), and what a mutation asks of the file meanwhile — its
// entry now (a link where the judged file was is refused), an open that never follows a link,
// and the last check before the rename (the lock still ours, the file at the version checked).
import type { BigIntStats } from 'node:fs'
import { lstat } from 'node:fs/promises'
import { basename } from 'node:path'
import { isFsError } from '@deepseek-ai/dsh-fs'
import { notFoundError, pathChangedError, staleVersionError } from '@deepseek-ai/dsh-fs/provider'
import { openParent, type OpenDirectory } from './directory'
import { hasNodeCode, toFsError } from './errors'
import { openRegular, versionOf, type RegularFile } from './file-info'
import { takeLock } from './lock'
import type { DirectoryAnchor } from './resolve'

export interface MutationPlace {
  /** The real path to change (symlinks followed). */
  path: string
  /** The path to name in errors. */
  display: string
  /** The call judged where the change lands: `path` is that place, not the path's answer now. */
  judged?: boolean
  /** The directory the call judged the change to land in, when the disk told it. */
  anchor?: DirectoryAnchor
  signal?: AbortSignal
}

/** The file's place held for one change: its open directory, its name there, the lock. */
export interface HeldFile {
  directory: OpenDirectory
  name: string
  /** `name` inside the directory, through its handle. */
  at: string
  display: string
  /** The file as it is now: absent, or its stats; a link is refused. */
  current(): Promise<BigIntStats | undefined>
  /** The file opened for reading, never through a link. */
  open(): Promise<RegularFile>
  /** The last check before the rename: the lock is ours, the file still at `version`. */
  recheck(version: string | undefined): Promise<void>
}

/**
 * Runs `work` on the file of `place` with its directory open and its lock held. A missing
 * directory is made when `create`; else it is FS_NOT_FOUND, or the `missing` error when given.
 */
export async function withFile<T>(
  place: MutationPlace,
  create: boolean,
  work: (file: HeldFile) => Promise<T>,
  missing?: () => Error,
): Promise<T> {
  const { path, display, anchor, judged = false } = place
  const directory = await openParent(path, display, anchor, create).catch((error: unknown) => {
    throw missing !== undefined && isFsError(error, 'FS_NOT_FOUND') ? missing() : error
  })
  try {
    const name = basename(path)
    const lock = await takeLock(directory, name, display)
    const at = directory.at(name)
    const current = () => currentStats(at, display, judged)
    try {
      return await work({
        directory,
        name,
        at,
        display,
        current,
        open: () => openNoLink(at, display, judged),
        async recheck(version) {
          await lock.verify()
          const now = await current()
          if ((now && versionOf(now)) !== version) throw staleVersionError(display)
        },
      })
    } finally {
      await lock.release()
    }
  } finally {
    await directory.close()
  }
}

/** The regular file at `at`, opened without following a link (a judged file's link: FS_PATH_CHANGED). */
async function openNoLink(at: string, display: string, judged: boolean): Promise<RegularFile> {
  try {
    return await openRegular(at, display, { noFollow: true })
  } catch (error) {
    if (judged && isFsError(error) && error.details.osCode === 'ELOOP') {
      throw pathChangedError(display, error)
    }
    throw error
  }
}

/**
 * The entry at `at` without following a link: absent, or its stats. A link where the judged
 * file was is FS_PATH_CHANGED; without a judged place it is a link the real path could not
 * follow (a loop), as before.
 */
async function currentStats(
  at: string,
  display: string,
  judged: boolean,
): Promise<BigIntStats | undefined> {
  let stats: BigIntStats
  try {
    stats = await lstat(at, { bigint: true })
  } catch (error) {
    if (hasNodeCode(error, 'ENOENT', 'ENOTDIR')) return undefined
    throw toFsError(error, display)
  }
  if (!stats.isSymbolicLink()) return stats
  if (judged) throw pathChangedError(display)
  throw toFsError(
    Object.assign(new Error('a link that cannot be followed'), { code: 'ELOOP' }),
    display,
  )
}

export async function versionAfterWrite(file: HeldFile): Promise<string> {
  const stats = await lstat(file.at, { bigint: true }).catch(() => undefined)
  // Only a program that takes no lock can remove the file right after the rename.
  if (!stats) throw notFoundError(file.display)
  return versionOf(stats)
}
