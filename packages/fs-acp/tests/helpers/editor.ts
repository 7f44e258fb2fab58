// An in-memory editor for tests: what an ACP client does with fs/read_text_file and
// fs/write_text_file, without the protocol. Unsaved buffers are kept by absolute path; a path
// with no unsaved buffer reads the file from disk, as an editor opening it (UTF-8, a leading
// U+FEFF kept), so a buffer the editor saved follows the disk as an editor reloads a clean
// buffer. A write sets the buffer and, when the editor saves, writes it to disk (parents
// created, unless told not to); an editor that does not save keeps it as an unsaved buffer. Every request is
// recorded.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { FsLineRange } from '@deepseek-ai/dsh-fs'
import type { AcpFsClient, AcpFsNotice } from '../../src/index'

/** A JSON-RPC error as the ACP SDK rejects with: a numeric code and a message. */
export class EditorRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

export interface MemoryEditorOptions {
  canRead?: boolean
  canWrite?: boolean
  /** Save each write to disk (default); else keep it as an unsaved buffer. */
  saves?: boolean
  /** A save makes the file's missing folders (default); else it fails as a bare write would. */
  makesFolders?: boolean
  /** Milliseconds each request waits before it acts (to let concurrent calls interleave). */
  delayMs?: number
  /**
   * How a ranged read (`line`/`limit`) is answered: as ACP says and Zed does (default), the
   * whole buffer (a client that ignores the range), or counting lines from 0.
   */
  ranges?: 'as-asked' | 'ignored' | 'from-zero'
}

/**
 * Sees each request first: resolves to let it through, rejects to fail it with the client's
 * error, or never settles (an editor that does not answer).
 */
export type EditorIntercept = (request: EditorRequest, signal: AbortSignal) => Promise<void>

export type EditorRequest =
  | { method: 'read'; path: string; range?: FsLineRange }
  | { method: 'write'; path: string; content: string }

export class MemoryEditor implements AcpFsClient {
  readonly canRead: boolean
  readonly canWrite: boolean
  readonly requests: EditorRequest[] = []
  /** The notices the provider gave the person through this editor. */
  readonly notices: AcpFsNotice[] = []
  /** What each call was told it waits on. */
  readonly waits: { call: object; text: string }[] = []
  /** While set, every request is recorded, then passed through it. */
  intercept: EditorIntercept | undefined
  private readonly saves: boolean
  private readonly makesFolders: boolean
  private readonly delayMs: number
  private readonly ranges: NonNullable<MemoryEditorOptions['ranges']>
  private readonly unsaved = new Map<string, string>()

  constructor(options: MemoryEditorOptions = {}) {
    this.canRead = options.canRead ?? true
    this.canWrite = options.canWrite ?? true
    this.saves = options.saves ?? true
    this.makesFolders = options.makesFolders ?? true
    this.delayMs = options.delayMs ?? 0
    this.ranges = options.ranges ?? 'as-asked'
  }

  notify(notice: AcpFsNotice): void {
    this.notices.push(notice)
  }

  waiting(call: object, text: string): void {
    this.waits.push({ call, text })
  }

  /** Types into the buffer of `path` without saving. */
  type(path: string, text: string): void {
    this.unsaved.set(path, text)
  }

  /** Drops the unsaved buffer of `path`: the editor shows the disk's file again. */
  revert(path: string): void {
    this.unsaved.delete(path)
  }

  /** The writes, in order. */
  get writes(): { path: string; content: string }[] {
    return this.requests.flatMap((request) =>
      request.method === 'write' ? [{ path: request.path, content: request.content }] : [],
    )
  }

  /** How many reads reached the editor. */
  get reads(): number {
    return this.requests.filter((request) => request.method === 'read').length
  }

  async readTextFile(path: string, signal: AbortSignal, range?: FsLineRange): Promise<string> {
    await this.arrive(range ? { method: 'read', path, range } : { method: 'read', path }, signal)
    const text = this.unsaved.get(path) ?? (await this.open(path))
    if (range === undefined || this.ranges === 'ignored') return text
    const lines = text.split(/(?<=\n)/)
    const first = this.ranges === 'from-zero' ? range.line : range.line - 1
    return lines.slice(first, first + range.limit).join('')
  }

  /** The file's text from disk, as an editor opening it. */
  private async open(path: string): Promise<string> {
    let bytes: Uint8Array
    try {
      bytes = await readFile(path)
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (code === 'ENOENT') throw new EditorRequestError(-32002, 'Resource not found')
      throw new EditorRequestError(-32603, `Internal error: ${String(error)}`)
    }
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
  }

  async writeTextFile(path: string, content: string, signal: AbortSignal): Promise<void> {
    await this.arrive({ method: 'write', path, content }, signal)
    if (!this.saves) {
      this.unsaved.set(path, content)
      return
    }
    if (this.makesFolders) await mkdir(dirname(path), { recursive: true })
    try {
      await writeFile(path, content, 'utf8')
    } catch (error) {
      throw new EditorRequestError(-32603, `Internal error: ${String(error)}`)
    }
    this.unsaved.delete(path)
  }

  /** Records the request, lets the intercept see it, and waits the delay. */
  private async arrive(request: EditorRequest, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted()
    this.requests.push(request)
    if (this.intercept) await this.intercept(request, signal)
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs))
  }
}
