// One writer per session across processes: `<id>.lock` holds the writer's pid. It is made by
// writing the pid to a temporary file and hard-linking that to the lock path, which fails with
// EEXIST when a lock exists (like O_EXCL), and no reader ever sees a lock without its pid. A
// lock whose process is gone is taken over (reported through `warn`); one of a live process is
// refused. This process's own locks are tracked in memory, so a lock that names this pid but is
// not held here (left by an earlier process that had the same pid, as in a restarted container)
// counts as left over. The locks still held when the process exits (a host that exits before
// its sessions were closed) are removed by an exit hook, so a new process opens them at once.
// Not for network file systems or several hosts sharing a directory.
import { linkSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { AgentError } from '@deepseek-ai/dsh-agent'
import { hasCode, isAlive, quietly, readStoreFile, storeIoError } from './io'
import { tempPathFor } from './paths'

/** The lock files this process holds. */
const held = new Set<string>()
let exitHookInstalled = false

/** Gives back, at exit, every lock still held (synchronously: the process is on its way out). */
function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const file of [...held]) quietly(() => releaseLock(file))
  })
}

/** The pid a lock's text names, when it names a plausible one. */
function parsePid(text: string): number | undefined {
  if (!/^\d{1,10}\n?$/.test(text)) return undefined
  const pid = Number(text)
  return pid > 0 ? pid : undefined
}

/** The lock's text; `undefined` when there is no lock (any more). */
function readLock(file: string): string | undefined {
  try {
    return readStoreFile(file).toString('utf8')
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return undefined
    throw storeIoError(error, `read the session lock ${file}`)
  }
}

/** Makes the lock with this process's pid; false when a lock exists. */
function tryCreate(file: string): boolean {
  const temp = tempPathFor(dirname(file), basename(file))
  try {
    writeFileSync(temp, `${process.pid}\n`, { flag: 'wx', mode: 0o600 })
    try {
      linkSync(temp, file)
      return true
    } catch (error) {
      if (hasCode(error, 'EEXIST')) return false
      throw error
    }
  } catch (error) {
    throw storeIoError(error, `take the session lock ${file}`)
  } finally {
    quietly(() => rmSync(temp, { force: true }))
  }
}

/**
 * Removes a left-over lock whose text was `seen`. It is moved aside first and checked: when
 * another process took the same left-over lock over in between, the moved file is that
 * process's fresh lock, and it is put back.
 */
function removeLeftover(file: string, seen: string): void {
  const aside = tempPathFor(dirname(file), basename(file))
  try {
    renameSync(file, aside)
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return
    throw storeIoError(error, `remove the left-over session lock ${file}`)
  }
  if (readLock(aside) !== seen) quietly(() => linkSync(aside, file))
  quietly(() => rmSync(aside, { force: true }))
}

function lockedError(id: string, file: string, pid: number): AgentError {
  if (pid === process.pid) {
    return new AgentError(
      'AGENT_SESSION_LOCKED',
      `Session ${id} is open already in this process (pid ${pid}): close its writer before opening it again.`,
    )
  }
  return new AgentError(
    'AGENT_SESSION_LOCKED',
    `Session ${id} is being written by process ${pid} (lock ${file}). Close the session there, or end that process, and try again; if no dsh process has pid ${pid}, remove ${file}.`,
  )
}

function leftoverReason(pid: number | undefined): string {
  if (pid === undefined) return 'it names no process'
  if (pid === process.pid) return 'an earlier process with this pid left it'
  return `process ${pid} left it and is no longer running`
}

/** Takes the lock of session `id` for this process, or throws AGENT_SESSION_LOCKED. */
export function acquireLock(file: string, id: string, warn: (message: string) => void): void {
  if (held.has(file)) throw lockedError(id, file, process.pid)
  // Each pass either takes the lock or clears a left-over one; a lock that keeps changing
  // hands meanwhile is reported as busy rather than fought over.
  for (let pass = 0; pass < 3; pass++) {
    if (tryCreate(file)) {
      held.add(file)
      installExitHook()
      return
    }
    const seen = readLock(file)
    if (seen === undefined) continue
    const pid = parsePid(seen)
    if (pid !== undefined && pid !== process.pid && isAlive(pid)) {
      throw lockedError(id, file, pid)
    }
    warn(`Taking over session ${id}: its lock ${file} is left over (${leftoverReason(pid)}).`)
    removeLeftover(file, seen)
  }
  throw new AgentError(
    'AGENT_SESSION_LOCKED',
    `Session ${id}: its lock ${file} changed hands while this process tried to take it; another process is opening it. Try again.`,
  )
}

/** Gives the lock of a session back; a lock that is not this process's is left alone. */
export function releaseLock(file: string): void {
  if (!held.delete(file)) return
  const text = readLock(file)
  if (text === undefined || parsePid(text) !== process.pid) return
  try {
    rmSync(file)
  } catch (error) {
    if (!hasCode(error, 'ENOENT')) throw storeIoError(error, `remove the session lock ${file}`)
  }
}
