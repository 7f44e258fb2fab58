// The lock between processes for one file: `.<name>.dsh-lock` beside it, holding the holder's
// pid. It is made by writing the pid to a temporary file and hard-linking that to the lock's
// name, which fails when a lock exists (like O_EXCL), so no process ever sees a lock without
// its pid. It is held from the first check of a write or edit to its rename, then removed. A
// process that finds a lock waits for it; a lock whose process is gone (killed while holding
// it) is taken over: moved aside, checked to be the one seen (else put back), removed. A lock
// naming this process that this process does not hold was left by an earlier process with the
// same pid. The holder checks it still holds the lock right before its rename.
// Not for network file systems or several hosts sharing a directory.
import { link, lstat, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { FsError } from '@deepseek-ai/dsh-fs'
import { hasNodeCode, toFsError } from './errors'
import { isAlive, tempNameFor } from './atomic-write'
import type { OpenDirectory } from './directory'

export const LOCK_SUFFIX = '.dsh-lock'

/** How long a write waits for a live process's lock before it gives up. */
export const LOCK_WAIT_MS = 30_000

/** The locks this process holds, by real path. */
const held = new Set<string>()

export interface FileLock {
  /** Throws unless the lock is still this process's (nobody took it over meanwhile). */
  verify(): Promise<void>
  release(): Promise<void>
}

export function lockNameFor(name: string): string {
  return `.${name}${LOCK_SUFFIX}`
}

/** Takes the lock of the file `name` in `directory`, waiting while a live process holds it. */
export async function takeLock(
  directory: OpenDirectory,
  name: string,
  display: string,
  waitMs = LOCK_WAIT_MS,
): Promise<FileLock> {
  const lockName = lockNameFor(name)
  const lock = directory.at(lockName)
  const key = `${directory.path}/${lockName}`
  const started = Date.now()
  for (let pass = 0; ; pass++) {
    const ino = await tryCreate(directory, name, lock, display)
    if (ino !== undefined) {
      held.add(key)
      return heldLock(lock, key, ino, display)
    }
    const seen = await readLock(lock, display)
    if (seen === undefined) continue
    const pid = parsePid(seen.text)
    const leftOver = pid === undefined || (pid === process.pid ? !held.has(key) : !isAlive(pid))
    if (leftOver) {
      await removeLeftover(directory, name, lock, seen.ino, display)
      continue
    }
    if (Date.now() - started > waitMs) throw busyError(display, pid, waitMs)
    await sleep(Math.min(1 + pass, 20))
  }
}

function heldLock(lock: string, key: string, ino: bigint, display: string): FileLock {
  return {
    async verify() {
      const now = await lstat(lock, { bigint: true }).catch(() => undefined)
      if (now?.ino === ino) return
      throw new FsError(
        'FS_IO',
        `The lock of ${display} was taken by another process while this change held it; nothing was changed. Retry.`,
        { path: display },
      )
    },
    async release() {
      held.delete(key)
      const now = await lstat(lock, { bigint: true }).catch(() => undefined)
      // Best effort: a lock not removed is taken over by the next writer, as after a crash.
      if (now?.ino === ino) await rm(lock, { force: true }).catch(() => undefined)
    },
  }
}

/** Makes the lock with this process's pid; its inode, or `undefined` when a lock exists. */
async function tryCreate(
  directory: OpenDirectory,
  name: string,
  lock: string,
  display: string,
): Promise<bigint | undefined> {
  const temp = directory.at(tempNameFor(name))
  try {
    await writeFile(temp, `${process.pid}\n`, { flag: 'wx', mode: 0o644 })
    try {
      await link(temp, lock)
    } catch (error) {
      if (hasNodeCode(error, 'EEXIST')) return undefined
      throw error
    }
    return (await lstat(temp, { bigint: true })).ino
  } catch (error) {
    throw toFsError(error, display)
  } finally {
    await rm(temp, { force: true }).catch(() => undefined)
  }
}

async function readLock(
  lock: string,
  display: string,
): Promise<{ text: string; ino: bigint } | undefined> {
  try {
    const ino = (await lstat(lock, { bigint: true })).ino
    return { text: await readFile(lock, 'utf8'), ino }
  } catch (error) {
    if (hasNodeCode(error, 'ENOENT')) return undefined
    throw toFsError(error, display)
  }
}

/**
 * Removes the left-over lock seen as inode `ino`. It is moved aside first and checked: when
 * another process took the same left-over lock over in between, the moved file is that
 * process's fresh lock, and it is put back.
 */
async function removeLeftover(
  directory: OpenDirectory,
  name: string,
  lock: string,
  ino: bigint,
  display: string,
): Promise<void> {
  const aside = directory.at(tempNameFor(name))
  try {
    await rename(lock, aside)
  } catch (error) {
    // Gone already: taken over by someone else; the next pass tries again.
    if (hasNodeCode(error, 'ENOENT')) return
    throw toFsError(error, display)
  }
  const moved = await lstat(aside, { bigint: true }).catch(() => undefined)
  // Best effort: EEXIST means a third process made a fresh lock; the holder's verify sees it.
  if (moved?.ino !== ino) await link(aside, lock).catch(() => undefined)
  await rm(aside, { force: true }).catch(() => undefined)
}

function parsePid(text: string): number | undefined {
  if (!/^\d{1,10}\n?$/.test(text)) return undefined
  const pid = Number(text)
  return pid > 0 ? pid : undefined
}

function busyError(display: string, pid: number | undefined, waitMs: number): FsError {
  return new FsError(
    'FS_IO',
    `${display} is being changed by another process (pid ${pid}), which has held its lock for over ${waitMs / 1000} s; nothing was changed. Retry later, or end that process.`,
    { path: display },
  )
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
