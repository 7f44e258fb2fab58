// LocalFileSystem: the host disk behind ctx.fs (SPEC §5). Public face only: the service and its
// config, delegating to LocalDisk (./disk), which a provider layered over the disk (fs-acp)
// holds directly. Writes and edits of one target run one at a time, in call order.
// `cwd` is the default base for relative paths, not a sandbox.
import type { Context } from 'cordis'
import {
  FileSystem,
  type FsEditExpectation,
  type FsEditOutcome,
  type FsEditRequest,
  type FsInfo,
  type FsResolveOptions,
  type FsStreamBytesOptions,
  type FsTarget,
  type FsWriteIntent,
  type FsWriteOutcome,
} from '@deepseek-ai/dsh-fs'
import { z } from 'zod'
import { LocalDisk } from './disk'
import { configOf } from '@deepseek-ai/dsh-tools/config'

export const Config = z
  .object({
    /** Base for relative paths when the caller gives no cwd. */
    cwd: z.string().default(() => process.cwd()),
    /** Files larger than this many bytes are refused by editText with FS_TOO_LARGE. */
    maxEditBytes: z
      .number()
      .int()
      .positive()
      .default(64 * 1024 * 1024),
  })
  .prefault({})

/** The config as a caller writes it (every field optional). */
export type LocalFileSystemConfig = z.input<typeof Config>

export default class LocalFileSystem extends FileSystem {
  static Config = Config

  /** The operations, on the disk. */
  readonly disk: LocalDisk

  constructor(ctx: Context, config: LocalFileSystemConfig) {
    super(ctx)
    // Cordis validated `config` against Config when it loaded the service: defaults are in.
    this.disk = new LocalDisk(configOf(Config, config))
  }

  /** The absolute base for relative paths. */
  get cwd(): string {
    return this.disk.cwd
  }

  resolve(path: string, options?: FsResolveOptions): Promise<FsTarget> {
    return this.disk.resolve(path, options)
  }

  realPath(path: string, options?: FsResolveOptions): Promise<string> {
    return this.disk.realPath(path, options)
  }

  stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined> {
    return this.disk.stat(target, signal)
  }

  readText(target: FsTarget, signal?: AbortSignal): Promise<string> {
    return this.disk.readText(target, signal)
  }

  streamText(target: FsTarget, signal?: AbortSignal): AsyncIterable<string> {
    return this.disk.streamText(target, signal)
  }

  streamBytes(
    target: FsTarget,
    options?: FsStreamBytesOptions,
    signal?: AbortSignal,
  ): AsyncIterable<Uint8Array> {
    return this.disk.streamBytes(target, options, signal)
  }

  writeText(
    target: FsTarget,
    content: string,
    intent?: FsWriteIntent,
    signal?: AbortSignal,
  ): Promise<FsWriteOutcome> {
    return this.disk.writeText(target, content, intent, signal)
  }

  editText(
    target: FsTarget,
    request: FsEditRequest,
    expected?: FsEditExpectation,
    signal?: AbortSignal,
  ): Promise<FsEditOutcome> {
    return this.disk.editText(target, request, expected, signal)
  }
}

export { LocalDisk } from './disk'
export type { LocalDiskOptions } from './disk'
export { toFsError } from './errors'
