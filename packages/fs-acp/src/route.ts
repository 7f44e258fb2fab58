// Which targets the editor serves, and the reads that follow from it. A target resolved for a
// session whose editor can read is editor-served when the disk holds a regular file there, no
// larger than maxEditorBytes, whose first 8 KiB look like UTF-8 text; anything else (missing,
// a directory, too large, binary) is the disk's, so its tool output and errors are exactly
// LocalDisk's. Also the snapshot: the text `stat` got, handed to the next read of that target
// object, so a stat → read sequence sees one version even while the person types. And a call's
// preview read: the text a stat got for a tool call (FsResolveOptions.call), which that call's
// write or edit takes instead of reading the buffer again while nothing says it changed.
// Not here: writes and edits (mutate.ts), the calls themselves (client.ts).
import { Buffer } from 'node:buffer'
import { isFsError, type FsInfo, type FsTarget, type FsVersion } from '@deepseek-ai/dsh-fs'
import { TextChunkDecoder, throwIfAborted } from '@deepseek-ai/dsh-fs/provider'
import type { LocalDisk } from '@deepseek-ai/dsh-fs-local'
import { readThroughEditor, type AcpFsClient } from './client'
import { editorInfo } from './editor-text'

/** How much of a file's head decides whether it is text. */
const SNIFF_BYTES = 8 * 1024

export type Route =
  /** A small text file on disk: the editor's buffer is the file (`info`: the disk's). */
  | { kind: 'editor'; client: AcpFsClient; info: FsInfo }
  /** Something on disk the editor does not serve: the disk's, with the disk's info. */
  | { kind: 'disk'; info: FsInfo }
  /** Nothing on disk: reads are the disk's (not found); a write may create through the editor. */
  | { kind: 'absent'; client: AcpFsClient }

/** What a call's stat read through the editor: the text, its version, the disk's version. */
interface CallRead {
  text: string
  version: FsVersion
  diskVersion: FsVersion
  /** The count of this provider's changes of the target when it was read. */
  change: number
}

export interface EditorRoutesOptions {
  maxEditorBytes: number
  timeoutMs: number
}

export class EditorRoutes {
  /** The editor each target was resolved for; targets stay plain objects. */
  private readonly clients = new WeakMap<FsTarget, AcpFsClient>()
  /** The text the last stat of a target got, until the next read of that target takes it. */
  private readonly snapshots = new WeakMap<FsTarget, string>()
  /** The tool call each target was resolved for (FsResolveOptions.call). */
  private readonly calls = new WeakMap<FsTarget, object>()
  /** Per call, by target key: the editor text its stat read, until its write or edit takes it. */
  private readonly callReads = new WeakMap<object, Map<string, CallRead>>()
  /** Per target key, how many changes this provider sent through the editor. */
  private readonly changes = new Map<string, number>()

  constructor(
    private readonly disk: LocalDisk,
    readonly options: EditorRoutesOptions,
  ) {}

  remember(target: FsTarget, client: AcpFsClient, call?: object): void {
    this.clients.set(target, client)
    if (call !== undefined) this.calls.set(target, call)
  }

  /** The editor that serves `target`, when it was resolved for one that can read. */
  clientOf(target: FsTarget): AcpFsClient | undefined {
    const client = this.clients.get(target)
    return client?.canRead ? client : undefined
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
    return text ? { kind: 'editor', client, info } : { kind: 'disk', info }
  }

  /** The editor's text of `target` now (a leading U+FEFF included). */
  read(target: FsTarget, client: AcpFsClient, signal?: AbortSignal): Promise<string> {
    return readThroughEditor(client, target.displayPath, this.options.timeoutMs, signal)
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
    this.snapshots.set(target, text)
    const info = editorInfo(text)
    const diskVersion = route.info.version
    const change = this.changes.get(target.targetKey) ?? 0
    this.keepCallRead(target, { text, version: info.version, diskVersion, change })
    return info
  }

  /**
   * The editor text of `target` for its call's write or edit: the text the call's stat read (a
   * preview), taken once, when the caller expects that very version and the disk file under
   * the buffer is unchanged since (`route`: the mutation's own look at the disk) and no change
   * went through the editor since from this provider; else the editor's text now. One editor read per change, where a preview came first.
   */
  async textToChange(
    target: FsTarget,
    route: Extract<Route, { kind: 'editor' }>,
    expected: FsVersion | undefined,
    signal?: AbortSignal,
  ): Promise<string> {
    const call = this.calls.get(target)
    const reads = call === undefined ? undefined : this.callReads.get(call)
    const kept = reads?.get(target.targetKey)
    reads?.delete(target.targetKey)
    if (
      kept !== undefined &&
      expected !== undefined &&
      kept.version === expected &&
      kept.diskVersion === route.info.version &&
      kept.change === (this.changes.get(target.targetKey) ?? 0)
    ) {
      return kept.text
    }
    return this.read(target, route.client, signal)
  }

  /** This provider sent a change of `target` through the editor: earlier call reads are old. */
  changed(target: FsTarget): void {
    this.changes.set(target.targetKey, (this.changes.get(target.targetKey) ?? 0) + 1)
  }

  private keepCallRead(target: FsTarget, read: CallRead): void {
    const call = this.calls.get(target)
    if (call === undefined) return
    let reads = this.callReads.get(call)
    if (reads === undefined) {
      reads = new Map()
      this.callReads.set(call, reads)
    }
    reads.set(target.targetKey, read)
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
