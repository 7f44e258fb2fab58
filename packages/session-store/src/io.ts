// The disk helpers every file of the store shares: Node error codes, AgentError
// AGENT_STORE_IO with the system's code, the store directory (0700) and its fsync, and the
// liveness of a pid, and reading a store file. Synchronous, like the store.
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
} from 'node:fs'
import { AgentError } from '@deepseek-ai/dsh-agent'

/** The Node error's code (`ENOENT`, `EACCES`…), when it has one. */
export function nodeCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}

export function hasCode(error: unknown, ...codes: string[]): boolean {
  const code = nodeCode(error)
  return code !== undefined && codes.includes(code)
}

/** AGENT_STORE_IO for a disk failure while `doing` (e.g. "append to /s/x.jsonl"). */
export function storeIoError(error: unknown, doing: string): AgentError {
  if (error instanceof AgentError) return error
  const code = nodeCode(error) ?? 'EIO'
  const reason = error instanceof Error ? error.message : String(error)
  return new AgentError(
    'AGENT_STORE_IO',
    `The session store could not ${doing} (${code}): ${reason}. Check the disk (space, permissions) and try again.`,
    { cause: error },
  )
}

/** Creates the store directory (and its parents) private to the user; an existing one stays. */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw storeIoError(error, `create the store directory ${dir}`)
  }
}

/** Makes a rename or a new entry in `dir` durable; platforms that cannot are let through. */
export function syncDir(dir: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch (error) {
    if (!hasCode(error, 'EINVAL', 'ENOTSUP', 'EISDIR', 'EPERM', 'EBADF')) {
      throw storeIoError(error, `fsync the store directory ${dir}`)
    }
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Runs a clean-up step whose failure must not hide the error being reported. */
export function quietly(step: () => void): void {
  try {
    step()
  } catch {
    // The caller is already reporting the failure that matters; this one adds nothing to it.
  }
}

/** True while a process `pid` exists (EPERM: it does, but belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return hasCode(error, 'EPERM')
  }
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW

/**
 * A store file's bytes. Only a regular file is read: it is opened non-blocking and not through
 * a last link, then checked, so a FIFO, a device or a link left in the store in place of a
 * session's file can neither hold the process nor lead the read elsewhere (an error with the
 * code EFTYPE, or ELOOP for a link, says so).
 */
export function readStoreFile(file: string): Buffer {
  const fd = openSync(file, READ_FLAGS)
  try {
    if (!fstatSync(fd).isFile()) {
      throw Object.assign(new Error(`${file} is not a regular file`), { code: 'EFTYPE' })
    }
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}
