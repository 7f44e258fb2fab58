// LocalFileSystem: the host disk behind ctx.fs (SPEC §5). Public face only: the service, its
// config and the delegation to the modules that do the work (resolve, file-info, stream,
// mutate, atomic-write). Writes and edits of one target run one at a time, in call order.
// `cwd` is the default base for relative paths, not a sandbox.
import { resolve as resolvePath } from 'node:path'
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
import { decodeText, throwIfAborted } from '@deepseek-ai/dsh-fs/provider'
import { z } from 'zod'
import { infoOf, readRegular, statPath } from './file-info'
import { editTextAt, writeTextAt, type MutationPlace } from './mutate'
import { KeyedMutex } from './mutex'
import { physicalPath, realPathOf, resolveTarget } from './resolve'
import { streamFileBytes, streamFileText } from './stream'

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

  /** The absolute base for relative paths. */
  readonly cwd: string
  private readonly maxEditBytes: number
  private readonly locks = new KeyedMutex()

  constructor(ctx: Context, config: LocalFileSystemConfig) {
    super(ctx)
    // Cordis validated `config` against Config when it loaded the service: defaults are in.
    const { cwd, maxEditBytes } = config as z.output<typeof Config>
    this.cwd = resolvePath(cwd)
    this.maxEditBytes = maxEditBytes
  }

  resolve(path: string, options?: FsResolveOptions): Promise<FsTarget> {
    return resolveTarget(path, this.cwd, options?.cwd)
  }

  realPath(path: string, options?: FsResolveOptions): Promise<string> {
    return realPathOf(path, this.cwd, options?.cwd)
  }

  async stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined> {
    throwIfAborted(signal, target.displayPath)
    const stats = await statPath(target.displayPath, target.displayPath)
    return stats && infoOf(stats)
  }

  async readText(target: FsTarget, signal?: AbortSignal): Promise<string> {
    throwIfAborted(signal, target.displayPath)
    const { bytes } = await readRegular(target.displayPath, target.displayPath)
    return decodeText(bytes, target.displayPath).text
  }

  streamText(target: FsTarget, signal?: AbortSignal): AsyncIterable<string> {
    return streamFileText(target.displayPath, target.displayPath, signal)
  }

  streamBytes(
    target: FsTarget,
    options?: FsStreamBytesOptions,
    signal?: AbortSignal,
  ): AsyncIterable<Uint8Array> {
    return streamFileBytes(target.displayPath, target.displayPath, options, signal)
  }

  writeText(
    target: FsTarget,
    content: string,
    intent?: FsWriteIntent,
    signal?: AbortSignal,
  ): Promise<FsWriteOutcome> {
    return this.locks.run(target.targetKey, async () =>
      writeTextAt(await this.place(target, signal), content, intent),
    )
  }

  editText(
    target: FsTarget,
    request: FsEditRequest,
    expected?: FsEditExpectation,
    signal?: AbortSignal,
  ): Promise<FsEditOutcome> {
    return this.locks.run(target.targetKey, async () =>
      editTextAt(await this.place(target, signal), request, expected, this.maxEditBytes),
    )
  }

  /** Where a mutation lands: the real path now (a link followed to its file). */
  private async place(target: FsTarget, signal?: AbortSignal): Promise<MutationPlace> {
    throwIfAborted(signal, target.displayPath)
    return { path: await physicalPath(target.displayPath), display: target.displayPath, signal }
  }
}
