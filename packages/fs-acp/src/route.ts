// Which targets the editor serves, and the reads that follow from it. A target resolved for a
// session whose editor can read is editor-served when the disk holds a regular file there, no
// larger than maxEditorBytes, whose first 8 KiB look like UTF-8 text; anything else (missing,
// a directory, too large, binary) is the disk's, so its tool output and errors are exactly
// LocalDisk's. Also the snapshot: the text `stat` got, handed to the next read of that target
// object, so a stat → read sequence sees one version even while the person types.
// An editor that lets a read time out hands every target of its session to the disk (./stall).
// Not here: writes and edits (mutate.ts), the calls themselves (client.ts).
import { Buffer } from 'node:buffer'
import {
  isFsError,
  type FsInfo,
  type FsLineRange,
  type FsLinesRead,
  type FsTarget,
} from '@deepseek-ai/dsh-fs'
import { TextChunkDecoder, throwIfAborted } from '@deepseek-ai/dsh-fs/provider'
import type { LocalDisk } from '@deepseek-ai/dsh-fs-local'
import { EditorTimeoutError, readThroughEditor, type AcpFsClient } from './client'
import { linesVersion, sliceLines, splitLines } from './editor-lines'
import { editorInfo, editorVersion, readableText, splitBom } from './editor-text'
import { EditorRanges } from './ranges'
import { EditorStalls } from './stall'

/** How much of a file's head decides whether it is text. */
const SNIFF_BYTES = 8 * 1024

export type Route =
  /** A small text file on disk: the editor's buffer is the file. */
  | { kind: 'editor'; client: AcpFsClient }
  /** Something on disk the editor does not serve: the disk's, with the disk's info. */
  | { kind: 'disk'; info: FsInfo }
  /** Nothing on disk: reads are the disk's (not found); a write may create through the editor. */
  | { kind: 'absent'; client: AcpFsClient }

export interface EditorRoutesOptions {
  maxEditorBytes: number
  timeoutMs: number
}

export class EditorRoutes {
  /** The editor each target was resolved for; targets stay plain objects. */
  private readonly clients = new WeakMap<FsTarget, AcpFsClient>()
  /** The tool call each target was resolved for, when the caller named one. */
  private readonly calls = new WeakMap<FsTarget, object>()
  /** The text the last stat of a target got, until the next read of that target takes it. */
  private readonly snapshots = new WeakMap<FsTarget, string>()
  /** Editors that stopped answering reads: their targets are the disk's. */
  readonly stalls = new EditorStalls()
  /** Whether each editor's ranged answers are trusted (./ranges). */
  private readonly ranges = new EditorRanges()

  constructor(
    private readonly disk: LocalDisk,
    readonly options: EditorRoutesOptions,
  ) {}

  remember(target: FsTarget, client: AcpFsClient, call?: object): void {
    this.clients.set(target, client)
    if (call !== undefined) this.calls.set(target, call)
  }

  /**
   * The editor that serves `target`, when it was resolved for one that can read and that has
   * not stopped answering reads (./stall).
   */
  clientOf(target: FsTarget): AcpFsClient | undefined {
    const client = this.clients.get(target)
    return client?.canRead && !this.stalls.has(client) ? client : undefined
  }

  /** Tells the call `target` was resolved for (if any) that it waits on the editor now. */
  waiting(target: FsTarget, client: AcpFsClient, text: string): void {
    const call = this.calls.get(target)
    if (call !== undefined) client.waiting?.(call, text)
  }

  /** Drops the snapshot of `target` (a write or edit makes it old). */
  forget(target: FsTarget): void {
    this.snapshots.delete(target)
  }

  async route(target: FsTarget, client: AcpFsClient, signal?: AbortSignal): Promise<Route> {
    const info = await this.disk.stat(target, signal)
    if (info === undefined) return { kind: 'absent', client }
    if (info.type !== 'file' || (info.size ?? 0) > this.options.maxEditorBytes) {
      return { kind: 'disk', info }
    }
    const text = await this.looksLikeText(target, info.size ?? 0, signal)
    return text ? { kind: 'editor', client } : { kind: 'disk', info }
  }

  /**
   * The editor's text of `target` now (a leading U+FEFF included); `undefined` when the editor
   * let the read time out, which hands its session's files to the disk (./stall).
   */
  async read(
    target: FsTarget,
    client: AcpFsClient,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const { timeoutMs } = this.options
    try {
      return await readThroughEditor(client, target.displayPath, timeoutMs, signal)
    } catch (error) {
      if (!(error instanceof EditorTimeoutError)) throw error
      this.stalls.stall(client, target.displayPath, timeoutMs)
      return undefined
    }
  }

  /**
   * Lines of an editor-served target through a ranged fs/read_text_file, with the version of
   * those lines (./editor-lines); `undefined` when the disk serves it, the editor is read whole
   * (./ranges) or did not answer the range (past the end, say): the caller then reads it whole.
   * While the editor's ranged answers are not yet trusted, the whole buffer is read too, and
   * the lines come from it, with its version.
   */
  async readLines(
    target: FsTarget,
    range: FsLineRange,
    signal?: AbortSignal,
  ): Promise<FsLinesRead | undefined> {
    throwIfAborted(signal, target.displayPath)
    const client = this.clientOf(target)
    if (client === undefined || this.ranges.trusted(client) === false) return undefined
    const route = await this.route(target, client, signal)
    if (route.kind !== 'editor') return undefined
    const ranged = await this.readRange(target, client, range, signal)
    if (ranged === undefined) return undefined
    const path = target.displayPath
    if (this.ranges.trusted(client) === undefined) {
      const whole = await this.read(target, client, signal)
      if (whole === undefined) return undefined
      this.ranges.judge(client, range, ranged, whole)
      const readable = readableText(whole, path)
      const text = sliceLines(readable, range.line, range.limit)
      const totalLines = splitLines(readable).length
      return { text, version: editorVersion(whole), source: 'editor', totalLines }
    }
    readableText(ranged, path) // throws FS_NOT_TEXT for a NUL, wherever it is
    const text = range.line === 1 ? splitBom(ranged).text : ranged
    return { text, version: linesVersion(range.line, splitLines(text)), source: 'editor' }
  }

  /**
   * The editor's answer to a ranged read; `undefined` when it let the read time out (./stall)
   * or refused it (a range past the end, a client that takes no range): a whole read says why.
   */
  private async readRange(
    target: FsTarget,
    client: AcpFsClient,
    range: FsLineRange,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const { timeoutMs } = this.options
    try {
      return await readThroughEditor(client, target.displayPath, timeoutMs, signal, range)
    } catch (error) {
      if (isFsError(error, 'FS_ABORTED') || !isFsError(error)) throw error
      if (error instanceof EditorTimeoutError) {
        this.stalls.stall(client, target.displayPath, timeoutMs)
      }
      return undefined
    }
  }

  /** stat: the editor's info for an editor-served target (its text kept for the next read). */
  async stat(
    target: FsTarget,
    client: AcpFsClient,
    signal?: AbortSignal,
  ): Promise<FsInfo | undefined> {
    const route = await this.route(target, client, signal)
    if (route.kind === 'absent') return undefined
    if (route.kind === 'disk') return { ...route.info, source: 'disk' }
    const text = await this.read(target, client, signal)
    if (text === undefined) {
      const info = await this.disk.stat(target, signal)
      return info && { ...info, source: 'disk' }
    }
    this.snapshots.set(target, text)
    return editorInfo(text)
  }

  /**
   * The editor text a read serves, or `undefined` when the disk serves the target: the text
   * the last stat got (once), else the editor's now. `fresh` skips the snapshot (a version
   * guard is checked against the editor as it is now).
   */
  async textForRead(
    target: FsTarget,
    signal?: AbortSignal,
    fresh = false,
  ): Promise<string | undefined> {
    throwIfAborted(signal, target.displayPath)
    const client = this.clientOf(target)
    if (client === undefined) return undefined
    const kept = this.snapshots.get(target)
    this.snapshots.delete(target)
    if (kept !== undefined && !fresh) return kept
    const route = await this.route(target, client, signal)
    return route.kind === 'editor' ? this.read(target, client, signal) : undefined
  }

  /**
   * True when the file's head is UTF-8 without NUL (a character cut at the end of the head
   * counts as text unless the head is the whole file). A failure to read it (gone, a
   * directory now) leaves the target to the disk, which reports it.
   */
  private async looksLikeText(
    target: FsTarget,
    size: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    try {
      for await (const chunk of this.disk.streamBytes(target, undefined, signal)) {
        const head = chunk.subarray(0, SNIFF_BYTES)
        const decoder = new TextChunkDecoder(target.displayPath)
        decoder.push(head)
        if (head.length >= size) decoder.end()
        return true
      }
      return true
    } catch (error) {
      if (isFsError(error, 'FS_ABORTED') || !isFsError(error)) throw error
      return false
    }
  }
}

/** True when the disk file `text` makes is one the editor serves (small, no NUL in its head). */
export function editorServes(text: string, maxEditorBytes: number): boolean {
  if (Buffer.byteLength(text, 'utf8') > maxEditorBytes) return false
  return !Buffer.from(text.slice(0, SNIFF_BYTES), 'utf8').subarray(0, SNIFF_BYTES).includes(0)
}
