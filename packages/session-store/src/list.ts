// Listing the stored sessions: every `<id>.json` header in the store directory, filtered by
// `cwd`, newest `updatedAt` first (ties by id), in pages. The cursor is opaque to callers:
// base64url of `[updatedAt in ms, id]` of the last session of the page, so a page continues
// after that session even when sessions are added or removed between pages. Files that are
// not headers this store wrote are skipped and returned for the caller to report.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type {
  SessionListOptions,
  SessionListPage,
  StoredSessionSummary,
} from '@deepseek-ai/dsh-agent'
import { parseHeader } from './header'
import { hasCode, readStoreFile, storeIoError } from './io'
import { isPlainId } from './paths'

export const DEFAULT_LIST_LIMIT = 50

interface ListPosition {
  time: number
  id: string
}

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.time, position.id])).toString('base64url')
}

export function decodeCursor(cursor: string): ListPosition {
  const invalid = new TypeError(
    `Invalid session list cursor ${JSON.stringify(cursor)}: pass the nextCursor of an earlier page, unchanged.`,
  )
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw invalid
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid
  const [time, id] = value as unknown[]
  if (typeof time !== 'number' || !Number.isFinite(time) || typeof id !== 'string') throw invalid
  return { time, id }
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT
  if (Number.isInteger(limit) && limit > 0) return limit
  throw new TypeError(`Invalid session list limit ${limit}: give a whole number of 1 or more.`)
}

/** True when `a` comes before `b`: newer first, then by id. */
function before(a: ListPosition, b: ListPosition): boolean {
  return a.time !== b.time ? a.time > b.time : a.id < b.id
}

export interface ListResult {
  page: SessionListPage
  /** `*.json` files that are not session headers, with what is wrong with each. */
  skipped: { name: string; problem: string }[]
}

type Entry = StoredSessionSummary & ListPosition

/** Reads the headers in `dir`; a missing directory has no sessions. */
function readEntries(dir: string, skipped: ListResult['skipped']): Entry[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return []
    throw storeIoError(error, `list the store directory ${dir}`)
  }
  const entries: Entry[] = []
  for (const name of names) {
    if (!name.endsWith('.json')) continue
    const id = name.slice(0, -'.json'.length)
    if (!isPlainId(id)) {
      skipped.push({ name, problem: 'not a session id' })
      continue
    }
    let text: string
    try {
      text = readStoreFile(join(dir, name)).toString('utf8')
    } catch (error) {
      // Removed since the listing: not a session any more. Anything else is reported below.
      if (!hasCode(error, 'ENOENT')) skipped.push({ name, problem: String(error) })
      continue
    }
    const parsed = parseHeader(text, id)
    if ('problem' in parsed) {
      skipped.push({ name, problem: parsed.problem })
      continue
    }
    const { cwd, title, updatedAt } = parsed.header
    const summary = title === undefined ? { id, cwd, updatedAt } : { id, cwd, title, updatedAt }
    entries.push({ ...summary, time: Date.parse(updatedAt) })
  }
  return entries
}

export function listSessions(dir: string, options: SessionListOptions = {}): ListResult {
  const limit = checkLimit(options.limit)
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor)
  const skipped: ListResult['skipped'] = []
  const entries = readEntries(dir, skipped)
    .filter((entry) => options.cwd === undefined || entry.cwd === options.cwd)
    .filter((entry) => after === undefined || before(after, entry))
    .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
  const sessions = entries.slice(0, limit).map(({ time: _time, ...summary }) => summary)
  const last = entries[limit - 1]
  const page: SessionListPage =
    entries.length > limit && last ? { sessions, nextCursor: encodeCursor(last) } : { sessions }
  return { page, skipped }
}
