// Reading a file the agent did not make (a project's instruction files, skills, commands)
// without being led astray by it: only a regular file is opened (a FIFO, a device or a socket
// never, so no open can block a thread of the process), it is opened non-blocking and without
// following a last link, and a path that leads elsewhere through a link is read only when its
// real path lies inside `within` (the session's roots: what the `read` tool reads unasked). A
// link out is reported (`outside`, with where it points), never read. `within` undefined is
// for the person's own places, whose links are theirs. Cordis-free.
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs'
import type { Stats } from 'node:fs'
import { open, realpath, stat } from 'node:fs/promises'
import { isWithin } from './paths'

export interface RegularFileOptions {
  /** Bytes read at most (the start of the file). */
  limit: number
  /** Folders the file's real path must lie in; undefined: anywhere. */
  within?: readonly string[]
}

export type RegularFile =
  | { ok: true; bytes: Buffer; stats: Stats; real: string }
  /** Missing, unreadable, or not a regular file: nothing there to read. */
  | { ok: false; reason: 'absent' }
  /** A link (in the path or the file itself) to outside `within`: `real` is where it points. */
  | { ok: false; reason: 'outside'; real: string }

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW
const ABSENT = { ok: false, reason: 'absent' } as const

/** The file at `path` as `options` allow; never blocks on what the path names. */
export async function readRegularFile(
  path: string,
  options: RegularFileOptions,
): Promise<RegularFile> {
  let real: string
  try {
    real = await realpath(path)
    if (!(await stat(real)).isFile()) return ABSENT
  } catch {
    return ABSENT // missing or unreadable: nothing to read
  }
  if (options.within !== undefined && !(await insideAny(real, options.within))) {
    return { ok: false, reason: 'outside', real }
  }
  let handle
  try {
    handle = await open(real, FLAGS)
  } catch {
    return ABSENT // gone, swapped for a link since, or unreadable
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) return ABSENT // swapped for a FIFO or a device since the check
    const buffer = Buffer.alloc(Math.min(stats.size, options.limit))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return { ok: true, bytes: buffer.subarray(0, bytesRead), stats, real }
  } catch {
    return ABSENT // the read failed midway: treated as absent
  } finally {
    await handle.close()
  }
}

/** The same, synchronously (a summary's opening is assembled without waiting). */
export function readRegularFileSync(path: string, options: RegularFileOptions): RegularFile {
  let real: string
  try {
    real = realpathSync(path)
    if (!statSync(real).isFile()) return ABSENT
  } catch {
    return ABSENT // missing or unreadable
  }
  if (options.within !== undefined && !options.within.some((root) => isWithin(realOf(root), real)))
    return { ok: false, reason: 'outside', real }
  let fd: number
  try {
    fd = openSync(real, FLAGS)
  } catch {
    return ABSENT // gone or swapped since the check
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) return ABSENT
    const buffer = Buffer.alloc(Math.min(stats.size, options.limit))
    const bytesRead = readSync(fd, buffer, 0, buffer.length, 0)
    return { ok: true, bytes: buffer.subarray(0, bytesRead), stats, real }
  } catch {
    return ABSENT // the read failed midway
  } finally {
    closeSync(fd)
  }
}

/** The text of a regular file as `options` allow, whole up to 1 MiB; or why there is none. */
export async function readRegularText(
  path: string,
  within: readonly string[] | undefined,
): Promise<{ ok: true; text: string } | Exclude<RegularFile, { ok: true }>> {
  const file = await readRegularFile(path, { limit: 1024 * 1024, within })
  return file.ok ? { ok: true, text: file.bytes.toString('utf8') } : file
}

async function insideAny(real: string, roots: readonly string[]): Promise<boolean> {
  for (const root of roots) {
    const resolved = await realpath(root).catch(() => root)
    if (isWithin(resolved, real)) return true
  }
  return false
}

function realOf(root: string): string {
  try {
    return realpathSync(root)
  } catch {
    return root // a root that does not resolve is compared as it is
  }
}
