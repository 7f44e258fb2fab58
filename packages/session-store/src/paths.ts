// Where the store keeps things: the default directory (XDG state), the three files of a session
// (`<id>.json`, `<id>.jsonl`, `<id>.lock`) and the temporary files beside them. An id is a
// plain name (letters, digits, `_`, `-`), so every path stays inside the store directory.
import { randomBytes } from 'node:crypto'
import { readdirSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { isAlive } from './io'

/** `$XDG_STATE_HOME/dsh/sessions` when that is set and absolute, else `~/.local/state/…`. */
export function defaultSessionsDir(
  env: Record<string, string | undefined> = process.env,
  home: string = homedir(),
): string {
  const state = env.XDG_STATE_HOME
  const base = state && isAbsolute(state) ? state : join(home, '.local', 'state')
  return join(base, 'dsh', 'sessions')
}

/** Room for the temporary-file suffix within a file system's 255-byte names. */
const MAX_ID_LENGTH = 128

/** True for an id this store can keep: 1–128 of `[A-Za-z0-9_-]`. */
export function isPlainId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_ID_LENGTH && /^[A-Za-z0-9_-]+$/.test(id)
}

export interface SessionFiles {
  header: string
  log: string
  lock: string
}

/** Where the child sessions of session `id` are kept: out of the listing, removed with it. */
export function childrenDir(dir: string, id: string): string {
  return join(dir, `${id}.children`)
}

export function sessionFiles(dir: string, id: string): SessionFiles {
  return {
    header: join(dir, `${id}.json`),
    log: join(dir, `${id}.jsonl`),
    lock: join(dir, `${id}.lock`),
  }
}

const TEMP_SUFFIX = '.tmp'

/** A fresh temporary path beside `<dir>/<name>`: `.<name>.<pid>.<12 hex>.tmp`. */
export function tempPathFor(dir: string, name: string): string {
  return join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`)
}

/**
 * Removes the temporary files of session `id` (header rewrites, lock takes) that processes
 * killed mid-write left behind. Called by the session's lock holder, so no live writer of this
 * session owns one; a live process's file is kept all the same. Best effort: a leftover is
 * harmless (listing ignores it), so a failure here never fails the caller.
 */
export function removeDeadTemps(dir: string, id: string): void {
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    // The directory could not be listed: nothing to tidy now; the next open tries again.
    return
  }
  const pattern = new RegExp(`^\\.${id}\\.(?:json|lock)\\.(\\d+)\\.[0-9a-f]{12}\\${TEMP_SUFFIX}$`)
  for (const entry of entries) {
    const pid = Number(pattern.exec(entry)?.[1] ?? 0)
    if (pid <= 0 || pid === process.pid || isAlive(pid)) continue
    try {
      rmSync(join(dir, entry), { force: true })
    } catch {
      // Left for the next open (see above): a leftover costs only its few bytes.
    }
  }
}
