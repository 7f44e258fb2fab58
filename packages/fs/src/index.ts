// The ctx.fs seam: the abstract FileSystem service, its types, FsError, and the fs/* events.
// No I/O here: providers (fs-local, an editor-backed one, the in-memory fake) implement it,
// with the rules they share from the `./provider` face (provider.ts).
import { Service } from 'cordis'
import type { Context } from 'cordis'
import { staleVersionError } from './failures'
import type {
  FsActor,
  FsCurrentState,
  FsEditExpectation,
  FsEditOutcome,
  FsEditRequest,
  FsInfo,
  FsLineRange,
  FsLinesRead,
  FsProvider,
  FsResolveOptions,
  FsStreamBytesOptions,
  FsTarget,
  FsVersion,
  FsWriteIntent,
  FsWriteOutcome,
} from './types'

declare module 'cordis' {
  interface Context {
    fs: FileSystem
  }

  interface Events {
    /** waterfall: the condition a write must meet; `undefined` writes unconditionally. */
    'fs/write-intent'(
      target: FsTarget,
      actor: FsActor,
      next: () => FsWriteIntent | undefined,
    ): FsWriteIntent | undefined
    /** waterfall: the version an edit expects; `undefined` edits unconditionally; a throw refuses. */
    'fs/edit-intent'(
      target: FsTarget,
      actor: FsActor,
      next: () => FsEditExpectation | undefined,
    ): FsEditExpectation | undefined
    /** emit: a read, write or edit by `actor` succeeded and saw the file at `version`. */
    'fs/observed'(target: FsTarget, version: FsVersion, actor: FsActor): void
  }
}

export abstract class FileSystem extends Service implements FsProvider {
  constructor(ctx: Context) {
    super(ctx, 'fs')
  }

  /** Resolves a path; relative paths against `options.cwd`, else the provider's base. */
  abstract resolve(path: string, options?: FsResolveOptions): Promise<FsTarget>

  /**
   * Where `path` really is: absolute (relative paths against `options.cwd`, else the provider's
   * base), `..` resolved, every symlink followed; a path that does not exist yet is the real
   * path of its nearest existing ancestor plus the rest. For deciding whether a path lies
   * inside a directory (compare real paths, never strings the caller typed). Rejects with an
   * FsError when the provider cannot tell (a link loop, a directory it may not search).
   */
  abstract realPath(path: string, options?: FsResolveOptions): Promise<string>

  /** What the path is now, or `undefined` when nothing is there. Never reads content. */
  abstract stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined>

  /** The whole regular file as text. */
  abstract readText(target: FsTarget, signal?: AbortSignal): Promise<string>

  /** The same text as `readText`, in chunks, with bounded memory. */
  abstract streamText(target: FsTarget, signal?: AbortSignal): AsyncIterable<string>

  /**
   * The file's raw bytes from `options.start`, for callers that scan without decoding (line
   * counting, seeking to a known line). Chunks are not validated as text. A chunk is a view
   * that is valid only until the next chunk is requested (the provider may read the next one
   * into the same memory): a caller copies what it keeps across chunks, and never writes to one.
   */
  abstract streamBytes(
    target: FsTarget,
    options?: FsStreamBytesOptions,
    signal?: AbortSignal,
  ): AsyncIterable<Uint8Array>

  /**
   * Some lines of the file, when the provider can read them for less than the whole file (an
   * editor over ACP, asked for a range): their text and a version of those lines alone.
   * `undefined` when it cannot (the default), and the caller reads the file as usual.
   */
  async readLines(
    _target: FsTarget,
    _range: FsLineRange,
    _signal?: AbortSignal,
  ): Promise<FsLinesRead | undefined> {
    return undefined
  }

  /**
   * Throws unless a caller that observed the file at `version` (a version this provider gave)
   * may still `operation` it, now that it is as `current` says: FS_STALE_VERSION when it
   * changed; FS_NOT_OBSERVED (`details.partial`) for a write after only some lines were read.
   * The provider judges its own versions; by default they must be equal. What `writeText` and
   * `editText` check under their lock, for a caller that checks ahead (a preview).
   */
  checkVersion(
    target: FsTarget,
    version: FsVersion,
    current: FsCurrentState,
    _operation: 'write' | 'edit',
  ): void {
    if (current.info.version !== version) throw staleVersionError(target.displayPath)
  }

  /** Atomically creates or replaces the file, under the intent's condition. */
  abstract writeText(
    target: FsTarget,
    content: string,
    intent?: FsWriteIntent,
    signal?: AbortSignal,
  ): Promise<FsWriteOutcome>

  /** A literal replace in one critical section, under the expectation's version. */
  abstract editText(
    target: FsTarget,
    request: FsEditRequest,
    expected?: FsEditExpectation,
    signal?: AbortSignal,
  ): Promise<FsEditOutcome>
}

export default FileSystem

export * from './types'
export { FS_ERROR_CODES, FsError, isFsError } from './errors'
export type { FsErrorCode, FsErrorDetails, FsErrorOptions } from './errors'
