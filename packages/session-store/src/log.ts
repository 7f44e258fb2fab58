// A session's event log `<id>.jsonl`: a first line `{"format":"dsh-session-log/1","id":…}`, then
// one event per line. Appends go through an O_APPEND descriptor, one `writeSync` per line, so a
// kill leaves at most the line being written torn. Reading drops such a torn last line (no
// newline at its end, or not JSON) and reports it; any other bad line, an event of a type this
// store does not write among them (./event-check), makes the log unreadable, and nothing is
// changed.
import { closeSync, constants, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs'
import { AgentError, type StoredSessionEvent } from '@deepseek-ai/dsh-agent'
import { storedEventProblem } from './event-check'
import { hasCode, quietly, readStoreFile, storeIoError } from './io'

export const LOG_FORMAT = 'dsh-session-log/1'

const APPEND = constants.O_WRONLY | constants.O_APPEND

/** The line of one stored event; a tool result's `details` are never stored. */
export function encodeEvent(event: StoredSessionEvent): Buffer {
  let stored: object = event
  if (event.type === 'tool/result' && 'details' in event) {
    const { details: _details, ...rest } = event as typeof event & { details?: unknown }
    stored = rest
  }
  return Buffer.from(`${JSON.stringify(stored)}\n`)
}

/**
 * Creates the log of session `id` with its marker line (fails with EEXIST if it exists). Not
 * fsynced: the writer's first sync or its close makes it durable with the session's first events.
 */
export function createLog(file: string, id: string): { fd: number; length: number } {
  const marker = Buffer.from(`${JSON.stringify({ format: LOG_FORMAT, id })}\n`)
  let fd: number | undefined
  try {
    fd = openSync(file, APPEND | constants.O_CREAT | constants.O_EXCL, 0o600)
    writeSync(fd, marker)
    return { fd, length: marker.length }
  } catch (error) {
    const open = fd
    if (open !== undefined) quietly(() => closeSync(open))
    throw storeIoError(error, `create the session log ${file}`)
  }
}

/** Opens an existing log for appending. */
export function openLogForAppend(file: string): number {
  try {
    return openSync(file, APPEND)
  } catch (error) {
    throw storeIoError(error, `open the session log ${file} for appending`)
  }
}

/** Cuts the log back to its first `length` bytes (a torn last line off) and makes that durable. */
export function cutLog(fd: number, length: number, file: string): void {
  try {
    ftruncateSync(fd, length)
    fsyncSync(fd)
  } catch (error) {
    throw storeIoError(error, `drop the torn last line of the session log ${file}`)
  }
}

export interface LogContents {
  events: StoredSessionEvent[]
  /** Bytes of the whole lines: where the next append must start. */
  length: number
  /** A torn last line that was left out: its size and what was wrong with it. */
  torn?: { bytes: number; reason: string }
}

function unreadable(file: string, problem: string): AgentError {
  return new AgentError(
    'AGENT_SESSION_UNREADABLE',
    `The session log ${file} is not one this store wrote: ${problem}. It is left as it is; move the session's files out of the store directory, or restore them from a backup.`,
  )
}

function parseLine(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

function isMarker(value: unknown, id: string): boolean {
  if (typeof value !== 'object' || value === null) return false
  const marker = value as { format?: unknown; id?: unknown }
  return marker.format === LOG_FORMAT && marker.id === id
}

/** Lines parsed between two yields of an unhurried read (readLogInSlices). */
export const LOG_SLICE_LINES = 2000

/** Reads the log of session `id`; a torn last line is left out (see `torn`), never an error. */
export function readLog(file: string, id: string): LogContents {
  const parsing = parseLog(logBytes(file), file, id)
  for (;;) {
    const step = parsing.next()
    if (step.done) return step.value
  }
}

/**
 * The same, parsed LOG_SLICE_LINES lines at a time with a turn of the event loop between
 * slices: a long session's load leaves other requests and sessions served meanwhile.
 */
export async function readLogInSlices(file: string, id: string): Promise<LogContents> {
  const parsing = parseLog(logBytes(file), file, id)
  for (;;) {
    const step = parsing.next()
    if (step.done) return step.value
    await new Promise<void>((resume) => setImmediate(resume))
  }
}

function logBytes(file: string): Buffer {
  try {
    return readStoreFile(file)
  } catch (error) {
    if (hasCode(error, 'ENOENT')) throw unreadable(file, 'it is missing beside its header')
    throw storeIoError(error, `read the session log ${file}`)
  }
}

/** Parses a log's bytes; yields after every LOG_SLICE_LINES lines, returns the contents. */
function* parseLog(data: Buffer, file: string, id: string): Generator<void, LogContents> {
  const events: StoredSessionEvent[] = []
  let start = 0
  for (let line = 1; start < data.length; line++) {
    const end = data.indexOf(0x0a, start)
    const last = end === -1 || end === data.length - 1
    const parsed = end === -1 ? undefined : parseLine(data.toString('utf8', start, end))
    if (line === 1) {
      if (!parsed || !isMarker(parsed.value, id)) {
        throw unreadable(file, `its first line is not {"format":"${LOG_FORMAT}","id":"${id}"}`)
      }
    } else if (!parsed) {
      if (last) {
        const reason = end === -1 ? 'no newline at its end' : 'not JSON'
        return { events, length: start, torn: { bytes: data.length - start, reason } }
      }
      throw unreadable(file, `line ${line} is not JSON (and it is not the last line)`)
    } else {
      const problem = storedEventProblem(parsed.value)
      if (problem !== undefined) throw unreadable(file, `line ${line}: ${problem}`)
      events.push(parsed.value as StoredSessionEvent)
    }
    start = end + 1
    if (line % LOG_SLICE_LINES === 0) yield
  }
  if (start === 0) throw unreadable(file, 'it is empty (no format line)')
  return { events, length: start }
}
