// A session's header file `<id>.json`: the StoredSessionHeader with `"format": "dsh-session/1"`,
// checked field by field when read, and rewritten atomically (a temporary file beside it,
// fsynced, renamed over it, the directory fsynced), so a crash leaves the old header or the
// new one, never a torn one.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { AgentError, type StoredSessionHeader } from '@deepseek-ai/dsh-agent'
import { hasCode, quietly, readStoreFile, storeIoError, syncDir } from './io'
import { tempPathFor } from './paths'

export const HEADER_FORMAT = 'dsh-session/1'

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** What is wrong with `value` as the stored header of session `id`; `undefined` when nothing. */
function headerProblem(value: unknown, id: string): string | undefined {
  if (!isRecord(value)) return 'it is not a JSON object'
  if (value.format !== HEADER_FORMAT) return `it has no "format": "${HEADER_FORMAT}" marker`
  if (value.id !== id) return `its id is ${JSON.stringify(value.id)}, not "${id}"`
  for (const key of ['cwd', 'createdAt', 'updatedAt'] as const) {
    if (typeof value[key] !== 'string') return `its "${key}" is not a string`
  }
  if (!Array.isArray(value.roots) || !value.roots.every((root) => typeof root === 'string')) {
    return 'its "roots" is not a list of strings'
  }
  for (const key of ['mode', 'title', 'model'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') {
      return `its "${key}" is not a string`
    }
  }
  if (!Number.isFinite(Date.parse(value.updatedAt as string))) {
    return 'its "updatedAt" is not a date'
  }
  return undefined
}

/** The header in `text`, or why it is not one (not JSON, no marker, a field of the wrong type). */
export function parseHeader(
  text: string,
  id: string,
): { header: StoredSessionHeader } | { problem: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { problem: 'it is not JSON' }
  }
  const problem = headerProblem(value, id)
  if (problem !== undefined) return { problem }
  const { format: _format, ...header } = value as StoredSessionHeader & { format: string }
  return { header }
}

/** Reads the header of session `id`; `undefined` when the file does not exist. */
export function readHeader(file: string, id: string): StoredSessionHeader | undefined {
  let text: string
  try {
    text = readStoreFile(file).toString('utf8')
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return undefined
    throw storeIoError(error, `read the session header ${file}`)
  }
  const parsed = parseHeader(text, id)
  if ('header' in parsed) return parsed.header
  throw new AgentError(
    'AGENT_SESSION_UNREADABLE',
    `The session header ${file} is not one this store wrote: ${parsed.problem}. It is left as it is; move it out of the store directory, or restore it from a backup.`,
  )
}

/**
 * Replaces `file` with `header` (plus the format marker) atomically; durably (the file and its
 * directory fsynced) unless `durable` is false (a session's before its writer's first sync,
 * which makes it durable).
 */
export function writeHeader(file: string, header: StoredSessionHeader, durable = true): void {
  const dir = dirname(file)
  const temp = tempPathFor(dir, basename(file))
  const data = `${JSON.stringify({ format: HEADER_FORMAT, ...header })}\n`
  let fd: number | undefined
  try {
    fd = openSync(temp, 'wx', 0o600)
    writeAll(fd, Buffer.from(data))
    if (durable) fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    renameSync(temp, file)
  } catch (error) {
    // Best effort: the write already failed, and that failure is the one to report.
    const open = fd
    if (open !== undefined) quietly(() => closeSync(open))
    quietly(() => rmSync(temp, { force: true }))
    throw storeIoError(error, `write the session header ${file}`)
  }
  if (durable) syncDir(dir)
}

/** Writes every byte at the fd's position, however short each `writeSync` is. */
function writeAll(fd: number, data: Buffer): void {
  for (let done = 0; done < data.length;) done += writeSync(fd, data, done)
}
