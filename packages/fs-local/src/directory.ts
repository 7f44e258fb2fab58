// The directory a write or an edit lands in, held open for the whole change. The file, its
// temporary file and its lock are named relative to the open directory (through /proc/self/fd
// where there is one), so a directory on the path swapped for a link after the check cannot send
// a byte elsewhere. Opening checks that the directory is the judged one (same device and inode,
// when the call judged it) and that it still sits at its real path; `verify` checks that again
// (before the temporary file is made, before the rename). Missing directories below it are
// created one at a time, each opened without following a link. Where /proc is missing, names are
// paths and `verify` re-resolves the path: a narrower window, not none.
// What this cannot refuse: the judged directory itself moved elsewhere between the last check and
// the rename; the file then lands in that same directory, wherever it went.
import { constants, type BigIntStats } from 'node:fs'
import { lstat, mkdir, open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { parentNotDirectoryError, pathChangedError } from '@deepseek-ai/dsh-fs/provider'
import { hasNodeCode, toFsError } from './errors'
import type { DirectoryAnchor } from './resolve'

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY
const NO_FOLLOW = constants.O_NOFOLLOW

export class OpenDirectory {
  private constructor(
    /** The directory's real path. */
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly stats: BigIntStats,
    private readonly proc: string | undefined,
    private readonly display: string,
  ) {}

  /** Opens the directory at the real path `path`; throws FS_PATH_CHANGED unless it is `anchor`. */
  static async open(
    path: string,
    display: string,
    anchor?: DirectoryAnchor,
  ): Promise<OpenDirectory> {
    let handle: FileHandle
    try {
      handle = await open(path, DIRECTORY_FLAGS)
    } catch (error) {
      if (anchor !== undefined && hasNodeCode(error, 'ENOENT', 'ENOTDIR')) {
        // The very file that was judged: the path could never exist. Anything else: it changed.
        const entry = await lstat(path, { bigint: true }).catch(() => undefined)
        const same = entry?.dev === anchor.dev && entry.ino === anchor.ino
        throw same && entry.isFile()
          ? parentNotDirectoryError(display, error)
          : pathChangedError(display, error)
      }
      throw directoryFailure(error, display)
    }
    return OpenDirectory.adopt(path, handle, display, anchor)
  }

  private static async adopt(
    path: string,
    handle: FileHandle,
    display: string,
    anchor?: DirectoryAnchor,
  ): Promise<OpenDirectory> {
    try {
      const stats = await handle.stat({ bigint: true })
      if (anchor !== undefined && (stats.dev !== anchor.dev || stats.ino !== anchor.ino)) {
        throw pathChangedError(display)
      }
      const proc = `/proc/self/fd/${handle.fd}`
      const viaProc = await readlink(proc).then(
        () => true,
        () => false,
      )
      const directory = new OpenDirectory(path, handle, stats, viaProc ? proc : undefined, display)
      await directory.verify()
      return directory
    } catch (error) {
      await handle.close()
      throw toFsError(error, display)
    }
  }

  /** The path that names `name` inside this directory, whatever happens to its path meanwhile. */
  at(name: string): string {
    return this.proc === undefined ? join(this.path, name) : `${this.proc}/${name}`
  }

  /** Throws FS_PATH_CHANGED unless the directory still sits at its real path. */
  async verify(): Promise<void> {
    if (this.proc !== undefined && (await readlink(this.proc).catch(() => '')) === this.path) return
    // Without /proc (or where it names the directory otherwise, as some mounts do): the path must
    // still lead, link-free, to this very directory.
    const now = await stat(this.path, { bigint: true }).catch(() => undefined)
    const real = await realpath(this.path).catch(() => undefined)
    if (now?.dev === this.stats.dev && now.ino === this.stats.ino && real === this.path) return
    throw pathChangedError(this.display)
  }

  /** The directory `name` inside this one, made when `create` and missing; never through a link. */
  async child(name: string, create: boolean): Promise<OpenDirectory> {
    const path = join(this.path, name)
    for (let attempt = 0; ; attempt++) {
      try {
        const handle = await open(this.at(name), DIRECTORY_FLAGS | NO_FOLLOW)
        return await OpenDirectory.adopt(path, handle, this.display)
      } catch (error) {
        if (hasNodeCode(error, 'ENOTDIR', 'ELOOP')) {
          // A file there: the path cannot exist. A link, or nothing any more: it changed.
          const entry = await lstat(this.at(name)).catch(() => undefined)
          if (entry !== undefined && !entry.isSymbolicLink() && !entry.isDirectory()) {
            throw parentNotDirectoryError(this.display, error)
          }
          throw pathChangedError(this.display, error)
        }
        if (!hasNodeCode(error, 'ENOENT') || !create) throw directoryFailure(error, this.display)
        // Made a moment ago and gone again: something is changing the path.
        if (attempt > 0) throw pathChangedError(this.display, error)
      }
      try {
        await mkdir(this.at(name))
      } catch (error) {
        // Made by someone else meanwhile: opened as it is, next pass.
        if (!hasNodeCode(error, 'EEXIST')) throw directoryFailure(error, this.display)
      }
    }
  }

  /** Makes the directory's entries durable; platforms that cannot fsync a directory pass. */
  async sync(): Promise<void> {
    try {
      await this.handle.sync()
    } catch (error) {
      if (!hasNodeCode(error, 'EINVAL', 'ENOTSUP', 'EISDIR', 'EPERM', 'EBADF')) {
        throw toFsError(error, this.display)
      }
    }
  }

  async close(): Promise<void> {
    // Best effort: the change is done or failed already; a failed close changes neither.
    await this.handle.close().catch(() => undefined)
  }
}

/**
 * Opens the directory the real path `file` lies in: from the judged anchor (or, without one, the
 * nearest existing ancestor) down, creating what is missing when `create`. FS_NOT_FOUND when the
 * directory is missing and `create` is false.
 */
export async function openParent(
  file: string,
  display: string,
  anchor: DirectoryAnchor | undefined,
  create: boolean,
): Promise<OpenDirectory> {
  const parent = dirname(file)
  const top = anchor?.path ?? (await nearestExisting(parent))
  const below = relative(top, parent)
  if (below.startsWith('..')) throw pathChangedError(display)
  let directory = await OpenDirectory.open(top, display, anchor)
  for (const name of below === '' ? [] : below.split(sep)) {
    try {
      const next = await directory.child(name, create)
      await directory.close()
      directory = next
    } catch (error) {
      await directory.close()
      throw error
    }
  }
  return directory
}

/** `path` or its nearest ancestor that exists (as any kind of entry). */
async function nearestExisting(path: string): Promise<string> {
  for (let at = path; ; at = dirname(at)) {
    try {
      await lstat(at)
      return at
    } catch (error) {
      if (!hasNodeCode(error, 'ENOENT') || dirname(at) === at) return at
    }
  }
}

function directoryFailure(error: unknown, display: string) {
  if (hasNodeCode(error, 'ENOTDIR', 'EEXIST')) return parentNotDirectoryError(display, error)
  return toFsError(error, display)
}
