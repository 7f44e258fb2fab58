// The person's stored API keys: `$XDG_CONFIG_HOME/dsh/credentials.json` (else
// `~/.config/dsh/credentials.json`), one key per server, the server being the base URL's origin
// (`https://api.deepseek.com`), so a key given for DeepSeek never goes to another server.
// Written whole and atomically (a private temporary file, fsynced, renamed over the old one),
// mode 0600 in a folder made 0700. Synchronous on purpose: a few hundred bytes, read when a
// session opens. Not the login's dialogue (./login) nor the key order (./api-key).
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync } from 'node:fs'
import { rmSync, writeSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'

/** What credentials.json holds. */
interface CredentialsFile {
  version: 1
  /** By server origin: the key and when it was stored. */
  keys: Record<string, { apiKey: string; storedAt: string }>
}

/** A stored key, or the problem that kept it from being read (a damaged file). */
export type StoredKey = { apiKey?: string; problem?: string }

/** Where the keys are kept for this environment. */
export function credentialsPath(env: Record<string, string | undefined>): string {
  const config = env.XDG_CONFIG_HOME?.trim()
  const base = config ? config : join(env.HOME?.trim() || homedir(), '.config')
  return join(base, 'dsh', 'credentials.json')
}

/** The server a key belongs to: the base URL's origin. */
export function serverOf(baseUrl: string): string {
  return new URL(baseUrl).origin
}

/** The key stored for `baseUrl`'s server; none when the file or the entry is missing. */
export function readStoredKey(file: string, baseUrl: string): StoredKey {
  const read = readCredentials(file)
  if (read.problem !== undefined) return { problem: read.problem }
  const apiKey = read.credentials.keys[serverOf(baseUrl)]?.apiKey
  return apiKey === undefined ? {} : { apiKey }
}

/** Stores `apiKey` for `baseUrl`'s server, keeping the other servers' keys. */
export function storeKey(file: string, baseUrl: string, apiKey: string, now = new Date()): void {
  const read = readCredentials(file)
  // A damaged file is replaced: the login is the person saying what the key is.
  const keys = read.problem === undefined ? { ...read.credentials.keys } : {}
  keys[serverOf(baseUrl)] = { apiKey, storedAt: now.toISOString() }
  writeCredentials(file, { version: 1, keys })
}

/** Removes the key of `baseUrl`'s server (the file with it when none is left); whether one was. */
export function removeKey(file: string, baseUrl: string): boolean {
  const read = readCredentials(file)
  if (read.problem !== undefined) return false
  const server = serverOf(baseUrl)
  if (read.credentials.keys[server] === undefined) return false
  const { [server]: _removed, ...keys } = read.credentials.keys
  if (Object.keys(keys).length === 0) rmSync(file, { force: true })
  else writeCredentials(file, { version: 1, keys })
  return true
}

type Read = { credentials: CredentialsFile; problem?: undefined } | { problem: string }

function readCredentials(file: string): Read {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { credentials: { version: 1, keys: {} } }
    }
    return { problem: `${file} could not be read: ${(error as Error).message}` }
  }
  try {
    const parsed = JSON.parse(text) as Partial<CredentialsFile> | null
    const keys = parsed?.keys
    if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) throw new Error('no keys')
    const valid = Object.entries(keys).filter(
      ([, entry]) => typeof entry?.apiKey === 'string' && entry.apiKey !== '',
    )
    return { credentials: { version: 1, keys: Object.fromEntries(valid) } }
  } catch {
    return {
      problem: `${file} is not a dsh credentials file: run dsh-acp --login to store the key again`,
    }
  }
}

function writeCredentials(file: string, credentials: CredentialsFile): void {
  const dir = dirname(file)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const temporary = join(dir, `.credentials.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  // Created 0600 (whatever the umask lets through is at most that): the key is never readable
  // by others, not even for a moment.
  const fd = openSync(temporary, 'wx', 0o600)
  try {
    writeSync(fd, `${JSON.stringify(credentials, null, 2)}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  syncDir(dir)
}

/** Makes the rename last through a crash; a platform that cannot open a folder skips it. */
function syncDir(dir: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // Not every platform syncs a folder (Windows cannot open one): the rename stands anyway.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
