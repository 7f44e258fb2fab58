// What the provider knows of a path on disk: its type and version from one `stat`, and a
// handle opened only on a regular file. Opening is non-blocking and the type is checked on
// the open handle (fstat), so a FIFO never hangs a read and a file swapped for a directory
// between a check and the open is still refused.
import { constants, type BigIntStats } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import type { FsEntryType, FsInfo } from '@deepseek-ai/dsh-fs'
import { notRegularFileError } from '@deepseek-ai/dsh-fs/provider'
import { hasNodeCode, toFsError } from './errors'

/** dev, inode, size and nanosecond mtime and ctime: a same-size rewrite in one millisecond differs. */
export function versionOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`
}

export function typeOf(stats: BigIntStats): FsEntryType {
  if (stats.isFile()) return 'file'
  if (stats.isDirectory()) return 'directory'
  return 'other'
}

export function infoOf(stats: BigIntStats): FsInfo {
  const type = typeOf(stats)
  return {
    version: versionOf(stats),
    type,
    ...(type === 'file' ? { size: Number(stats.size) } : {}),
  }
}

/** The stats at `path` (symlinks followed), or `undefined` when nothing is there. */
export async function statPath(path: string, display: string): Promise<BigIntStats | undefined> {
  try {
    return await stat(path, { bigint: true })
  } catch (error) {
    if (hasNodeCode(error, 'ENOENT', 'ENOTDIR')) return undefined
    throw toFsError(error, display)
  }
}

/** Refuses anything but a regular file with FS_NOT_REGULAR_FILE. */
export function checkRegular(stats: BigIntStats, display: string): void {
  if (stats.isFile()) return
  const what = stats.isDirectory()
    ? 'a directory'
    : stats.isFIFO()
      ? 'a named pipe (FIFO)'
      : stats.isSocket()
        ? 'a socket'
        : 'a device or other special file'
  throw notRegularFileError(display, what)
}

export interface RegularFile {
  handle: FileHandle
  stats: BigIntStats
  version: string
}

/** Opens a regular file for reading; the caller closes `handle`. */
export async function openRegular(path: string, display: string): Promise<RegularFile> {
  let handle: FileHandle
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    // A socket or device refuses the open itself (ENXIO, ENODEV…): name what is there.
    if (!hasNodeCode(error, 'ENOENT', 'ENOTDIR', 'EACCES', 'EPERM')) {
      const stats = await stat(path, { bigint: true }).catch(() => undefined)
      if (stats) checkRegular(stats, display)
    }
    throw toFsError(error, display)
  }
  try {
    const stats = await handle.stat({ bigint: true })
    checkRegular(stats, display)
    return { handle, stats, version: versionOf(stats) }
  } catch (error) {
    await handle.close()
    throw toFsError(error, display)
  }
}

/** Reads a whole regular file (stats from the same handle). */
export async function readRegular(
  path: string,
  display: string,
): Promise<{ bytes: Uint8Array; stats: BigIntStats; version: string }> {
  const file = await openRegular(path, display)
  try {
    return { bytes: await file.handle.readFile(), stats: file.stats, version: file.version }
  } catch (error) {
    throw toFsError(error, display)
  } finally {
    await file.handle.close()
  }
}
