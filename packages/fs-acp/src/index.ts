// AcpFileSystem: ctx.fs through the person's editor (the ACP client's fs/read_text_file and
// fs/write_text_file), layered over the local disk. Public face only: the service, its config
// and the AcpFsClient type. A target resolved for a session whose editor can read, and that is
// a small text file on disk, is read from the editor's buffer (unsaved changes included) and
// written through the editor; everything else is the disk's, exactly as LocalDisk. Never
// imports the ACP SDK: the host hands over each session's editor through `clientOf`.
import type { Context } from 'cordis'
import {
  FileSystem,
  type FsCurrentState,
  type FsEditExpectation,
  type FsEditOutcome,
  type FsEditRequest,
  type FsInfo,
  type FsLineRange,
  type FsLinesRead,
  type FsResolveOptions,
  type FsSession,
  type FsStreamBytesOptions,
  type FsTarget,
  type FsVersion,
  type FsWriteIntent,
  type FsWriteOutcome,
} from '@deepseek-ai/dsh-fs'
import {
  partlyObservedError,
  staleVersionError,
  throwIfAborted,
} from '@deepseek-ai/dsh-fs/provider'
import LocalFileSystem, { LocalDisk } from '@deepseek-ai/dsh-fs-local'
import { z } from 'zod'
import type { AcpFsClient } from './client'
import { editorVersionHolds, linesHold, parseLinesVersion } from './editor-lines'
import { byteChunks, readableText, textChunks } from './editor-text'
import { EditorMutations } from './mutate'
import { EditorRoutes } from './route'
import { configOf } from '@deepseek-ai/dsh-tools/config'

/** The editor of a caller's session (none: no session, or one whose editor serves no files). */
export type AcpFsClientOf = (session: FsSession | undefined) => AcpFsClient | undefined

export const Config = z
  .object({
    /** The disk under the editor: its base for relative paths and its edit limit. */
    local: LocalFileSystem.Config,
    /** Files larger than this many bytes on disk are served from disk. */
    maxEditorBytes: z
      .number()
      .int()
      .positive()
      .default(8 * 1024 * 1024),
    /**
     * The longest wait for one editor read, in milliseconds; past it the session's files are
     * the disk's (./stall). A write through the editor waits until answered or cancelled.
     */
    timeoutMs: z.number().int().positive().default(30_000),
    /** The editor of a session (`FsResolveOptions.session`); absent, the provider is the disk. */
    clientOf: z.custom<AcpFsClientOf>((value) => typeof value === 'function').optional(),
  })
  .prefault({})

/** The config as a caller writes it (every field optional). */
export type AcpFileSystemConfig = z.input<typeof Config>

export default class AcpFileSystem extends FileSystem {
  static Config = Config

  /** The disk under the editor, for every target the editor does not serve. */
  readonly disk: LocalDisk
  private readonly clientOf?: AcpFsClientOf
  private readonly routes: EditorRoutes
  private readonly mutations: EditorMutations

  constructor(ctx: Context, config: AcpFileSystemConfig) {
    super(ctx)
    // Cordis validated `config` against Config when it loaded the service: defaults are in.
    const { local, maxEditorBytes, timeoutMs, clientOf } = configOf(Config, config)
    this.disk = new LocalDisk(local)
    this.clientOf = clientOf
    this.routes = new EditorRoutes(this.disk, { maxEditorBytes, timeoutMs })
    this.mutations = new EditorMutations(this.disk, this.routes, local.maxEditBytes)
  }

  async resolve(path: string, options?: FsResolveOptions): Promise<FsTarget> {
    const target = await this.disk.resolve(path, options)
    const client = this.clientOf?.(options?.session)
    if (client !== undefined) this.routes.remember(target, client, options?.call)
    return target
  }

  realPath(path: string, options?: FsResolveOptions): Promise<string> {
    return this.disk.realPath(path, options)
  }

  async stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined> {
    throwIfAborted(signal, target.displayPath)
    const client = this.routes.clientOf(target)
    if (client !== undefined) return this.routes.stat(target, client, signal)
    const info = await this.disk.stat(target, signal)
    return info && { ...info, source: 'disk' }
  }

  async readText(target: FsTarget, signal?: AbortSignal): Promise<string> {
    const text = await this.routes.textForRead(target, signal)
    if (text === undefined) return this.disk.readText(target, signal)
    return readableText(text, target.displayPath)
  }

  async *streamText(target: FsTarget, signal?: AbortSignal): AsyncIterable<string> {
    const text = await this.routes.textForRead(target, signal)
    if (text === undefined) return yield* this.disk.streamText(target, signal)
    const path = target.displayPath
    yield* textChunks(readableText(text, path), path, signal)
  }

  override readLines(
    target: FsTarget,
    range: FsLineRange,
    signal?: AbortSignal,
  ): Promise<FsLinesRead | undefined> {
    return this.routes.readLines(target, range, signal)
  }

  /** A version of some lines (a ranged read) holds while those lines do, and never for a write. */
  override checkVersion(
    target: FsTarget,
    version: FsVersion,
    current: FsCurrentState,
    operation: 'write' | 'edit',
  ): void {
    const lines = parseLinesVersion(version)
    if (lines === undefined) return super.checkVersion(target, version, current, operation)
    if (operation === 'write') throw partlyObservedError(target.displayPath)
    if (current.text === undefined || !linesHold(lines, current.text)) {
      throw staleVersionError(target.displayPath)
    }
  }

  async *streamBytes(
    target: FsTarget,
    options?: FsStreamBytesOptions,
    signal?: AbortSignal,
  ): AsyncIterable<Uint8Array> {
    const version = options?.version
    const text = await this.routes.textForRead(target, signal, version !== undefined)
    if (text === undefined) return yield* this.disk.streamBytes(target, options, signal)
    const path = target.displayPath
    if (version !== undefined && !editorVersionHolds(version, text)) throw staleVersionError(path)
    yield* byteChunks(text, options?.start ?? 0, path, signal)
  }

  writeText(
    target: FsTarget,
    content: string,
    intent?: FsWriteIntent,
    signal?: AbortSignal,
  ): Promise<FsWriteOutcome> {
    const client = this.routes.clientOf(target)
    if (client === undefined) return this.disk.writeText(target, content, intent, signal)
    return this.mutations.write(target, client, content, intent, signal)
  }

  editText(
    target: FsTarget,
    request: FsEditRequest,
    expected?: FsEditExpectation,
    signal?: AbortSignal,
  ): Promise<FsEditOutcome> {
    const client = this.routes.clientOf(target)
    if (client === undefined) return this.disk.editText(target, request, expected, signal)
    return this.mutations.edit(target, client, request, expected, signal)
  }
}

export type { AcpFsClient, AcpFsNotice } from './client'
