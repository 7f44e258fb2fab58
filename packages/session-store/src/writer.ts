// The writer of one open session: appends event lines to the log's O_APPEND descriptor, fsyncs
// on `sync`, rewrites the header atomically, and gives the lock back on `close`. A new session's
// files are written without an fsync, and so is its header until then (a start answers
// `session/new`, and a first prompt reaches its model, without waiting for the disk); its first
// sync (a turn's end) or its close makes them durable. A failed
// append is cut back off the log (so the next line never follows a torn one); if even that
// fails, the writer refuses further appends.
import { closeSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  AgentError,
  type SessionWriter,
  type StoredSessionEvent,
  type StoredSessionHeader,
} from '@deepseek-ai/dsh-agent'
import { writeHeader } from './header'
import { storeIoError, syncDir } from './io'
import { releaseLock } from './lock'
import { encodeEvent } from './log'
import type { SessionFiles } from './paths'

export class FileSessionWriter implements SessionWriter {
  #fd: number | undefined
  /** Bytes of whole lines in the log. */
  #length: number
  /** Why appends are refused: a failed append could not be cut off. */
  #broken: string | undefined
  /** The header was written without an fsync (a new session's): the next sync makes it durable. */
  #headerUnsynced: boolean

  constructor(
    readonly id: string,
    private readonly files: SessionFiles,
    fd: number,
    length: number,
    options: { headerUnsynced?: boolean } = {},
  ) {
    this.#fd = fd
    this.#length = length
    this.#headerUnsynced = options.headerUnsynced === true
  }

  append(event: StoredSessionEvent): void {
    const fd = this.#openFd('append to')
    if (this.#broken !== undefined) {
      throw new AgentError(
        'AGENT_STORE_IO',
        `The writer of session ${this.id} refuses appends: ${this.#broken}. Close it and open the session again.`,
      )
    }
    const line = encodeEvent(event)
    try {
      // One write of the whole line; the loop only runs after a short write (a full disk).
      for (let done = 0; done < line.length;) done += writeSync(fd, line, done)
    } catch (error) {
      this.#cutBack(fd, error)
      throw storeIoError(error, `append to the session log ${this.files.log}`)
    }
    this.#length += line.length
  }

  sync(): void {
    // After close there is nothing to sync: close fsynced everything appended.
    if (this.#fd === undefined) return
    try {
      fsyncSync(this.#fd)
    } catch (error) {
      throw storeIoError(error, `fsync the session log ${this.files.log}`)
    }
    this.#syncHeader()
  }

  #syncHeader(): void {
    if (!this.#headerUnsynced) return
    let fd: number | undefined
    try {
      fd = openSync(this.files.header, 'r')
      fsyncSync(fd)
    } catch (error) {
      throw storeIoError(error, `fsync the session header ${this.files.header}`)
    } finally {
      if (fd !== undefined) closeSync(fd)
    }
    syncDir(dirname(this.files.header))
    this.#headerUnsynced = false
  }

  saveHeader(header: StoredSessionHeader): void {
    this.#openFd('save the header of')
    if (header.id !== this.id) {
      throw new TypeError(
        `saveHeader got the header of session ${header.id}; this writer holds session ${this.id}`,
      )
    }
    // Before the first sync the session is not durable yet: neither is its header.
    writeHeader(this.files.header, header, !this.#headerUnsynced)
  }

  close(): void {
    const fd = this.#fd
    if (fd === undefined) return
    this.#fd = undefined
    const failures: unknown[] = []
    for (const step of [
      () => fsyncSync(fd),
      () => this.#syncHeader(),
      () => closeSync(fd),
      () => releaseLock(this.files.lock),
    ]) {
      try {
        step()
      } catch (error) {
        failures.push(error)
      }
    }
    if (failures.length > 0) throw storeIoError(failures[0], `close session ${this.id}`)
  }

  #openFd(doing: string): number {
    if (this.#fd !== undefined) return this.#fd
    throw new AgentError(
      'AGENT_STORE_IO',
      `Cannot ${doing} session ${this.id}: its writer is closed. Open the session again to write to it.`,
    )
  }

  /** Removes the part of a failed append that reached the log. */
  #cutBack(fd: number, failure: unknown): void {
    try {
      ftruncateSync(fd, this.#length)
    } catch {
      // The log may now end in a torn line, which a reload drops; appending after it would
      // turn it into a bad middle line, so this writer stops.
      this.#broken = `an append failed (${String(failure)}) and could not be undone`
    }
  }
}
