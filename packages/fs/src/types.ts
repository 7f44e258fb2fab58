// Types of the ctx.fs seam. Types only: no values, no I/O.

/** Opaque; changes whenever the file's content may have changed. Compare with `===` only. */
export type FsVersion = string

/** A path resolved by a provider. */
export interface FsTarget {
  /** The path as the caller gave it. */
  inputPath: string
  /** The file's identity: two paths to one file (a link and its target) share one key. */
  targetKey: string
  /** Absolute path shown to the model and the UI. */
  displayPath: string
}

/**
 * A caller's session, as far as the seam reads it (a tool session has this shape and more): an
 * identity a policy keeps its state by and a provider routes by.
 */
export interface FsSession {
  readonly header: { readonly id: string; readonly cwd: string }
}

/** Who a read, write or edit is for (a tool call): its session's observations apply. */
export interface FsActor {
  readonly session: FsSession
}

export interface FsResolveOptions {
  /** Base for a relative path (the caller's session workspace); else the provider's base. */
  cwd?: string
  /**
   * The caller's session: a provider that serves each session from its own place (an editor's
   * buffers over ACP) routes by it; others ignore it.
   */
  session?: FsSession
  /**
   * The tool call the resolution serves, opaque to the seam. A provider may resolve each path
   * once per call, so the steps of one call (a permission check, then the tool) see one answer
   * for where the path is.
   */
  call?: object
  /**
   * The caller means to change the file (a write, an edit). A provider that resolves once per
   * call then also keeps the identity of the directory it found the path in, so the call's
   * change lands in that directory or nowhere (FS_PATH_CHANGED). Reads leave it unset and pay
   * nothing for it.
   */
  change?: boolean
}

export type FsEntryType = 'file' | 'directory' | 'other'

export interface FsInfo {
  version: FsVersion
  type: FsEntryType
  /** Size in bytes, when the provider knows it. */
  size?: number
  /**
   * Where the content comes from, when a provider has more than one place (`editor`, `disk`):
   * for what a UI is told, never for a decision.
   */
  source?: string
}

/** Lines of a file to read: from the 1-based `line`, at most `limit` of them. */
export interface FsLineRange {
  line: number
  limit: number
}

/** Some lines of a file, read without the rest of it (FileSystem.readLines). */
export interface FsLinesRead {
  /** The text from the start of the range's first line, as the provider holds it; no BOM. */
  text: string
  /**
   * A version of these lines alone (opaque): a caller that records it as what it observed
   * gets it checked by the provider (FileSystem.checkVersion) like any other version.
   */
  version: FsVersion
  /** Where the text comes from, as FsInfo.source. */
  source?: string
  /** Lines in the whole file, when the provider read it whole anyway (by the read rule). */
  totalLines?: number
}

/** A file as a caller found it just now: its info and, when it read it, its readable text. */
export interface FsCurrentState {
  info: FsInfo
  /** The whole text without BOM, as `readText` gave it right after the stat of `info`. */
  text?: string
}

/** A condition on a write. No intent means an unconditional write. */
export type FsWriteIntent =
  { kind: 'createIfAbsent' } | { kind: 'replaceIfVersion'; version: FsVersion }

export interface FsWriteOutcome {
  operation: 'create' | 'update'
  version: FsVersion
  /**
   * The content the write replaced, for presentation: `null` when the file was created,
   * `undefined` when the provider did not keep it (too large, not text).
   */
  previousText?: string | null
}

export interface FsEditRequest {
  /** Literal text to find; never empty. */
  oldString: string
  /** Literal replacement (`$&` is just text). */
  newString: string
  /** Replace every occurrence; otherwise exactly one must exist. */
  replaceAll?: boolean
}

/** An edit's precondition: the file must still be at this version. */
export interface FsEditExpectation {
  version: FsVersion
}

/** Lines of the file before and after an edit, enough to show a diff. */
export interface FsTextExcerpt {
  /** 1-based line of the file where both texts start. */
  startLine: number
  /** Text of those lines before the edit. */
  oldText: string
  /** Text of those lines after the edit. */
  newText: string
  /** True when the texts are the whole file. */
  whole: boolean
}

export interface FsEditOutcome {
  replacements: number
  replaceAll: boolean
  version: FsVersion
  /** 1-based line (in the edited file) where the first replacement starts. */
  line: number
  /** The changed region with some context; the whole file when it is small. */
  excerpt: FsTextExcerpt
}

export interface FsStreamBytesOptions {
  /** Byte offset to start at (default 0). */
  start?: number
  /** Fail with FS_STALE_VERSION unless the file is still at this version. */
  version?: FsVersion
  /**
   * Two byte arrays to read the chunks into, in turn, instead of the provider's own buffers:
   * a caller that scans bytes where they land (its WebAssembly memory, say) then copies
   * nothing. Chunks are no longer than the shorter one. A provider that cannot read into them
   * ignores them, so the caller checks where each chunk lies.
   */
  into?: readonly [Uint8Array, Uint8Array]
}

/**
 * The operations of ctx.fs (the FileSystem service's methods), for a provider built over another
 * one without being a service itself — a disk under an editor, say. Contracts: see FileSystem.
 */
export interface FsProvider {
  resolve(path: string, options?: FsResolveOptions): Promise<FsTarget>
  realPath(path: string, options?: FsResolveOptions): Promise<string>
  stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined>
  readText(target: FsTarget, signal?: AbortSignal): Promise<string>
  streamText(target: FsTarget, signal?: AbortSignal): AsyncIterable<string>
  streamBytes(
    target: FsTarget,
    options?: FsStreamBytesOptions,
    signal?: AbortSignal,
  ): AsyncIterable<Uint8Array>
  writeText(
    target: FsTarget,
    content: string,
    intent?: FsWriteIntent,
    signal?: AbortSignal,
  ): Promise<FsWriteOutcome>
  editText(
    target: FsTarget,
    request: FsEditRequest,
    expected?: FsEditExpectation,
    signal?: AbortSignal,
  ): Promise<FsEditOutcome>
}
