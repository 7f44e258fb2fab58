// The durable save path: write the bytes to a fresh temporary file in the target's directory,
// fsync it, rename it over the target, fsync the directory. A crash at any instant leaves the
// old file or the new one, never a torn one; a failed write removes its temporary file. A
// kill (SIGKILL, power loss) between creating and renaming the temporary file can leave that
// one file behind, named `.<name>.<pid>.<random>.dsh-tmp`; the next write of the same file
// removes such leftovers whose process is no longer alive on this host (a live process's
// temporary file is never touched).
// The directory is held open (directory.ts) and every name is taken relative to it; it is
// checked to still sit at its judged path before the temporary file is made and again right
// before the rename, after the caller's own last check (`beforeRename`).
import { randomBytes } from 'node:crypto'
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises'
import { hasNodeCode, toFsError } from './errors'
import type { OpenDirectory } from './directory'

export interface AtomicWriteOptions {
  /** Permission bits to give the file (an existing file's); else 0o666 under the umask. */
  mode?: number
  /** Owner to keep (an existing file's); tried, and skipped when not permitted. */
  owner?: { uid: number; gid: number }
  /** The path to name in errors. */
  display: string
  /** The caller's last check, run after the bytes are durable and right before the rename. */
  beforeRename?: () => Promise<void>
}

export const TEMP_SUFFIX = '.dsh-tmp'

/** A fresh temporary-file name for the file `name`, in its directory. */
export function tempNameFor(name: string): string {
  return `.${name}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`
}

/** The pid in a temporary-file name of the file `name`, or `undefined` when it is not one. */
function tempOwner(name: string, entry: string): number | undefined {
  const prefix = `.${name}.`
  if (!entry.startsWith(prefix) || !entry.endsWith(TEMP_SUFFIX)) return undefined
  const match = /^(\d+)\.[0-9a-f]{12}$/.exec(entry.slice(prefix.length, -TEMP_SUFFIX.length))
  return match ? Number(match[1]) : undefined
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return hasNodeCode(error, 'EPERM')
  }
}

/** Removes temporary files of `name` left by processes that died mid-write. */
async function removeDeadTemps(directory: OpenDirectory, name: string): Promise<void> {
  // Best effort: a leftover that cannot be listed or removed is harmless; the write goes on.
  const entries = await readdir(directory.at('.')).catch(() => [])
  for (const entry of entries) {
    const pid = tempOwner(name, entry)
    if (pid === undefined || pid === process.pid || isAlive(pid)) continue
    await rm(directory.at(entry), { force: true }).catch(() => undefined)
  }
}

/** Writes `data` (the whole content, or its pieces in order) to `name` in `directory` atomically. */
export async function writeFileAtomic(
  directory: OpenDirectory,
  name: string,
  data: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions,
): Promise<void> {
  await removeDeadTemps(directory, name)
  const temp = directory.at(tempNameFor(name))
  let handle: FileHandle | undefined
  try {
    await directory.verify()
    handle = await open(temp, 'wx', 0o666)
    // Owner first: a chown clears the set-user-ID and set-group-ID bits that chmod sets.
    if (options.owner) await keepOwner(handle, options.owner)
    if (options.mode !== undefined) await handle.chmod(options.mode)
    await writePieces(handle, data instanceof Uint8Array ? [data] : data)
    await handle.sync()
    await handle.close()
    handle = undefined
    await options.beforeRename?.()
    await directory.verify()
    await rename(temp, directory.at(name))
  } catch (error) {
    // Best effort: the write already failed; the error that matters is that one.
    await handle?.close().catch(() => undefined)
    await rm(temp, { force: true }).catch(() => undefined)
    throw toFsError(error, options.display)
  }
  await directory.sync()
}

/** Buffers per `writev` call: within every platform's IOV_MAX. */
const PIECES_PER_WRITE = 1024

/** Writes the pieces in order at the handle's position, whatever the size of each write. */
async function writePieces(handle: FileHandle, pieces: readonly Uint8Array[]): Promise<void> {
  for (let first = 0; first < pieces.length; first += PIECES_PER_WRITE) {
    const group = pieces.slice(first, first + PIECES_PER_WRITE)
    const size = group.reduce((sum, piece) => sum + piece.length, 0)
    const { bytesWritten } = await handle.writev(group)
    if (bytesWritten < size) await writeRest(handle, group, bytesWritten)
  }
}

/** Finishes a short `writev`: the group's bytes after the first `written`. */
async function writeRest(
  handle: FileHandle,
  group: readonly Uint8Array[],
  written: number,
): Promise<void> {
  let skip = written
  for (const piece of group) {
    if (skip >= piece.length) {
      skip -= piece.length
      continue
    }
    // writeFile on a handle writes at its position and goes on until every byte is written.
    await handle.writeFile(piece.subarray(skip))
    skip = 0
  }
}

async function keepOwner(handle: FileHandle, owner: { uid: number; gid: number }): Promise<void> {
  const uid = process.getuid?.()
  const gid = process.getgid?.()
  if (owner.uid === uid && owner.gid === gid) return
  try {
    await handle.chown(owner.uid, owner.gid)
  } catch (error) {
    // Only a privileged process may give a file away; otherwise the new file is ours.
    if (!hasNodeCode(error, 'EPERM', 'EINVAL')) throw error
  }
}
