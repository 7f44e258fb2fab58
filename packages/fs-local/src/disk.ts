// LocalDisk: the host disk as ctx.fs operations, without the Cordis service around them, so a
// provider layered over the disk (an editor's buffers over ACP) can hold one of its own.
// Writes and edits of one target run one at a time, in call order. `cwd` is the default base
// for relative paths, not a sandbox. The work is in resolve, file-info, stream, mutate and
// atomic-write; this class only delegates to them.
import { resolve as resolvePath } from 'node:path'
import type {
  FsEditExpectation,
  FsEditOutcome,
  FsEditRequest,
  FsInfo,
  FsProvider,
  FsResolveOptions,
  FsStreamBytesOptions,
  FsTarget,
  FsWriteIntent,
  FsWriteOutcome,
} from '@deepseek-ai/dsh-fs'
import {
  decodeText,
  KeyedMutex,
  pathChangedError,
  throwIfAborted,
} from '@deepseek-ai/dsh-fs/provider'
import { OpenDirectory } from './directory'
import { infoOf, readRegular, statPath } from './file-info'
import type { MutationPlace } from './held-file'
import { editTextAt, writeTextAt } from './mutate'
import { PathResolver, physicalPath } from './resolve'
import { streamFileBytes, streamFileText } from './stream'

export interface LocalDiskOptions {
  /** Base for relative paths when the caller gives no cwd. */
  cwd: string
  /** Files larger than this many bytes are refused by editText with FS_TOO_LARGE. */
  maxEditBytes: number
}

export class LocalDisk implements FsProvider {
  /** The absolute base for relative paths. */
  readonly cwd: string
  private readonly maxEditBytes: number
  private readonly locks = new KeyedMutex()
  private readonly paths: PathResolver

  constructor(options: LocalDiskOptions) {
    this.cwd = resolvePath(options.cwd)
    this.maxEditBytes = options.maxEditBytes
    this.paths = new PathResolver(this.cwd)
  }

  resolve(path: string, options?: FsResolveOptions): Promise<FsTarget> {
    return this.paths.resolve(path, options)
  }

  realPath(path: string, options?: FsResolveOptions): Promise<string> {
    return this.paths.realPath(path, options)
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

  /**
   * Throws FS_PATH_CHANGED when `target` was judged for a change (a call with `change`) and its
   * path no longer leads to the judged file in the judged directory. For a provider that makes
   * the change another way (an editor writing by path): the check right before it does.
   */
  async checkPlace(target: FsTarget): Promise<void> {
    const judged = this.paths.judgedPlace(target)
    if (judged === undefined) return
    const display = target.displayPath
    if ((await physicalPath(display)) !== judged.path) throw pathChangedError(display)
    if (judged.anchor === undefined) return
    const directory = await OpenDirectory.open(judged.anchor.path, display, judged.anchor)
    await directory.close()
  }

  /**
   * Where a mutation lands: the place the call judged (its real path and directory), else the
   * real path now (a link followed to its file).
   */
  private async place(target: FsTarget, signal?: AbortSignal): Promise<MutationPlace> {
    throwIfAborted(signal, target.displayPath)
    const display = target.displayPath
    const judged = this.paths.judgedPlace(target)
    if (judged !== undefined) {
      return { path: judged.path, anchor: judged.anchor, judged: true, display, signal }
    }
    return { path: await physicalPath(display), display, signal }
  }
}
