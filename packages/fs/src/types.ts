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

export interface FsResolveOptions {
  /** Base for a relative path (the caller's session workspace); else the provider's base. */
  cwd?: string
}

export type FsEntryType = 'file' | 'directory' | 'other'

export interface FsInfo {
  version: FsVersion
  type: FsEntryType
  /** Size in bytes, when the provider knows it. */
  size?: number
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
}
