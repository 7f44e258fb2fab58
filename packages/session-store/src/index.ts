// FileSessionStore: the agent host's sessions on disk, a plain synchronous class (no Cordis)
// that fills the SessionStore seam of `@deepseek-ai/dsh-agent`. One session is `<id>.json`
// (its header, rewritten atomically) and `<id>.jsonl` (its events, appended), written by one
// process at a time (`<id>.lock`). Layout, durability and errors: README.md.
import { closeSync, rmSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import {
  AgentError,
  type SessionListOptions,
  type SessionListPage,
  type SessionStore,
  type SessionWriter,
  type StoredChildSession,
  type StoredSession,
  type StoredSessionHeader,
} from '@deepseek-ai/dsh-agent'
import { readChildren } from './children'
import { readHeader, writeHeader } from './header'
import { ensureDir, hasCode, quietly, storeIoError } from './io'
import { listSessions } from './list'
import { acquireLock, releaseLock } from './lock'
import { createLog, cutLog, openLogForAppend, readLog, readLogInSlices } from './log'
import type { LogContents } from './log'
import { childrenDir, isPlainId, removeDeadTemps, sessionFiles, type SessionFiles } from './paths'
import { removeSessionFiles } from './remove'
import { FileSessionWriter } from './writer'

export { defaultSessionsDir } from './paths'
export { HEADER_FORMAT } from './header'
export { LOG_FORMAT } from './log'

export interface FileSessionStoreOptions {
  /** The store directory; created (mode 0700) on the first write. */
  dir: string
  /** Reports what the store recovered from (a torn line, a left-over lock, skipped files). */
  warn?: (message: string) => void
}

function warnOnStderr(message: string): void {
  process.stderr.write(`${message}\n`)
}

function exists(file: string): boolean {
  try {
    statSync(file)
    return true
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return false
    throw storeIoError(error, `look up ${file}`)
  }
}

export class FileSessionStore implements SessionStore {
  readonly dir: string
  readonly #warn: (message: string) => void
  /** Skipped files already reported, so a foreign file is reported once per store. */
  readonly #reported = new Set<string>()

  constructor(options: FileSessionStoreOptions) {
    this.dir = resolve(options.dir)
    this.#warn = options.warn ?? warnOnStderr
  }

  create(header: StoredSessionHeader): SessionWriter {
    if (!isPlainId(header.id)) {
      throw new TypeError(
        `Session id ${JSON.stringify(header.id)} is not a plain id (1 to 128 of A-Z, a-z, 0-9, "_", "-").`,
      )
    }
    // A child session lives under its parent's `<parent>.children/`: never listed, removed with it.
    const parent = header.parent
    if (parent !== undefined && !isPlainId(parent)) {
      throw new TypeError(`Parent session id ${JSON.stringify(parent)} is not a plain id.`)
    }
    const dir = parent === undefined ? this.dir : childrenDir(this.dir, parent)
    const files = sessionFiles(dir, header.id)
    for (const file of [files.header, files.log]) {
      if (exists(file)) {
        throw new AgentError(
          'AGENT_STORE_IO',
          `Cannot create session ${header.id}: ${file} exists already (EEXIST). A new session needs a new id.`,
        )
      }
    }
    ensureDir(dir)
    return this.#underLock(header.id, files, () => {
      removeDeadTemps(dir, header.id)
      // The log first, the header last: a listed session always has its log.
      const log = createLog(files.log, header.id)
      const writer = new FileSessionWriter(header.id, files, log.fd, log.length, {
        headerUnsynced: true,
      })
      try {
        writeHeader(files.header, header, false)
      } catch (error) {
        quietly(() => writer.close())
        throw error
      }
      return writer
    })
  }

  open(id: string): StoredSession {
    const files = this.#filesOf(id)
    return this.#underLock(id, files, () => {
      const header = readHeader(files.header, id)
      if (header === undefined) throw this.#notFound(id)
      return this.#takeLog(id, files, header, readLog(files.log, id))
    })
  }

  /**
   * `open`, with the log parsed in slices and a turn of the event loop between them, so a
   * long session's load leaves the process serving other requests and sessions meanwhile.
   */
  async openInSlices(id: string): Promise<StoredSession> {
    const files = this.#filesOf(id)
    const header = this.#underLock(id, files, () => {
      const header = readHeader(files.header, id)
      if (header === undefined) throw this.#notFound(id)
      return header
    })
    try {
      return this.#takeLog(id, files, header, await readLogInSlices(files.log, id))
    } catch (error) {
      quietly(() => releaseLock(files.lock))
      throw error
    }
  }

  /** The session taken for writing after its log was read: a torn last line cut away. */
  #takeLog(
    id: string,
    files: SessionFiles,
    header: StoredSession['header'],
    log: LogContents,
  ): StoredSession {
    const fd = openLogForAppend(files.log)
    if (log.torn) {
      try {
        cutLog(fd, log.length, files.log)
      } catch (error) {
        quietly(() => closeSync(fd))
        throw error
      }
      this.#warn(
        `Session ${id}: dropped the torn last line of ${files.log} (${log.torn.bytes} bytes, ${log.torn.reason}), left by an interrupted write; the log continues after event ${log.events.length}.`,
      )
    }
    const writer = new FileSessionWriter(id, files, fd, log.length)
    removeDeadTemps(this.dir, id)
    return { header, events: log.events, writer }
  }

  /**
   * Removes session `id` (its header, its log, its dead writers' temporary files) under its
   * lock: refused while a live process, this one included, holds it. Nothing else is touched.
   */
  delete(id: string): void {
    const files = this.#filesOf(id)
    acquireLock(files.lock, id, this.#warn)
    try {
      removeSessionFiles(id, files)
      rmSync(childrenDir(this.dir, id), { recursive: true, force: true })
    } finally {
      releaseLock(files.lock)
    }
  }

  /** The child sessions stored under `id` (./children), oldest first. */
  children(id: string): StoredChildSession[] {
    if (!isPlainId(id)) return []
    return readChildren(this.dir, id, this.#warn)
  }

  list(options?: SessionListOptions): SessionListPage {
    const { page, skipped } = listSessions(this.dir, options)
    const fresh = skipped.filter(({ name }) => !this.#reported.has(name))
    if (fresh.length > 0) {
      for (const { name } of fresh) this.#reported.add(name)
      const named = fresh.map(({ name, problem }) => `${name} (${problem})`).join(', ')
      this.#warn(
        `The session store ${this.dir} skipped files that are not session headers: ${named}.`,
      )
    }
    return page
  }

  /** Runs `work` holding the session's lock; a failure gives the lock back. */
  #underLock<T>(id: string, files: SessionFiles, work: () => T): T {
    acquireLock(files.lock, id, this.#warn)
    try {
      return work()
    } catch (error) {
      quietly(() => releaseLock(files.lock))
      throw error
    }
  }

  /** The files of a stored session; throws for an id that is not plain or not stored. */
  #filesOf(id: string): SessionFiles {
    if (!isPlainId(id)) {
      throw new AgentError(
        'AGENT_SESSION_UNREADABLE',
        `Session id ${JSON.stringify(id)} is not a plain id (1 to 128 of A-Z, a-z, 0-9, "_", "-"): the store reads no file outside ${this.dir}.`,
      )
    }
    const files = sessionFiles(this.dir, id)
    if (!exists(files.header)) throw this.#notFound(id)
    return files
  }

  #notFound(id: string): AgentError {
    return new AgentError(
      'AGENT_SESSION_NOT_FOUND',
      `No stored session has the id ${id} in ${this.dir}; list the sessions to see the ids there.`,
    )
  }
}
