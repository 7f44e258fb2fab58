// The ctx.fs seam: the abstract FileSystem service, its types, FsError, and the fs/* events.
// No I/O here: providers (fs-local, an editor-backed one, the in-memory fake) implement it,
// with the rules they share from the `./provider` face (provider.ts).
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type {
  FsActor,
  FsEditExpectation,
  FsEditOutcome,
  FsEditRequest,
  FsInfo,
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
