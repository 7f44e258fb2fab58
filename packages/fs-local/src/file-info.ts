// What the provider knows of a path on disk: its type and version from one `stat`, and a
// handle opened only on a regular file. Opening is non-blocking and the type is checked on
// the open handle (fstat), so a FIFO never hangs a read and a file swapped for a directory
// between a check and the open is still refused.
import { Buffer } from 'node:buffer'
import { close, constants, fstat, open as fsOpen, read, type BigIntStats } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { FsError, type FsEntryType, type FsInfo } from '@deepseek-ai/dsh-fs'
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

/** How a file is opened: `noFollow` refuses a link in the last component (ELOOP). */
export interface OpenOptions {
  noFollow?: boolean
}

/** Opens a regular file for reading; the caller closes `handle`. */
export async function openRegular(
  path: string,
  display: string,
  options: OpenOptions = {},
): Promise<RegularFile> {
  let handle: FileHandle
  try {
    handle = await open(path, readFlags(options))
  } catch (error) {
    throw await openFailure(error, path, display)
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

const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

function readFlags(options: OpenOptions): number {
  return options.noFollow === true ? READ_FLAGS | constants.O_NOFOLLOW : READ_FLAGS
}

/** The error for a failed open: what is there when it is not a file (a socket or device). */
async function openFailure(error: unknown, path: string, display: string): Promise<Error> {
  // A socket or device refuses the open itself (ENXIO, ENODEV…): name what is there.
  if (!hasNodeCode(error, 'ENOENT', 'ENOTDIR', 'EACCES', 'EPERM')) {
    const stats = await stat(path, { bigint: true }).catch(() => undefined)
    if (stats) checkRegular(stats, display)
  }
  return toFsError(error, display)
}

/**
 * Reads a whole regular file (stats from the same open file), by file descriptor: the
 * everyday small read, where FileHandle's bookkeeping would add about a tenth to the call.
 * One read of a byte more than the size, more only while the file turns out longer (it grew
 * since its stat); a short read of a regular file is its end. The descriptor is closed
 * without making the caller wait: nothing that follows depends on the close.
 */
export async function readRegular(
  path: string,
  display: string,
  options?: OpenOptions,
): Promise<{ bytes: Uint8Array; stats: BigIntStats; version: string }> {
  let fd: number
  const flags = options === undefined ? READ_FLAGS : readFlags(options)
  try {
    fd = await nodeCall<number>((done) => fsOpen(path, flags, done))
  } catch (error) {
    throw await openFailure(error, path, display)
  }
  try {
    const stats = await nodeCall<BigIntStats>((done) => fstat(fd, { bigint: true }, done))
    checkRegular(stats, display)
    const bytes = await readToEnd(fd, Number(stats.size), display)
    return { bytes, stats, version: versionOf(stats) }
  } catch (error) {
    throw toFsError(error, display)
  } finally {
    close(fd, () => undefined)
  }
}

/** Node reads at most this many bytes into one buffer. */
const MAX_BUFFER_BYTES = 2 ** 31 - 1

async function readToEnd(fd: number, size: number, display: string): Promise<Uint8Array> {
  if (size >= MAX_BUFFER_BYTES) throw tooLargeToReadError(display, size)
  let buffer = Buffer.allocUnsafe(size + 1)
  let length = 0
  for (;;) {
    const into = buffer
    const bytesRead = await nodeCall<number>((done) =>
      read(fd, into, length, into.length - length, length, done),
    )
    length += bytesRead
    if (length < buffer.length) return buffer.subarray(0, length)
    if (buffer.length >= MAX_BUFFER_BYTES) throw tooLargeToReadError(display, length)
    const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, MAX_BUFFER_BYTES))
    buffer.copy(larger)
    buffer = larger
  }
}

function tooLargeToReadError(display: string, size: number): FsError {
  return new FsError(
    'FS_TOO_LARGE',
    `${display} is ${size} bytes, too large to read whole (the limit is ${MAX_BUFFER_BYTES} bytes). Read it in parts.`,
    { path: display, details: { size, limit: MAX_BUFFER_BYTES } },
  )
}

/** A Node callback call as a promise. */
function nodeCall<T>(start: (done: (error: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    start((error, value) => (error ? reject(error) : resolve(value)))
  })
}
