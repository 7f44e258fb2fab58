// Types of the undo store: what a turn changed, file by file, and the seam a snapshot provider
// fills (git's shadow store, or the file tools' own record where git is missing). Types only.

/** A file as a snapshot holds it: git's mode (`100644`, `100755`, `120000`) and its bytes' id. */
export interface UndoFileState {
  mode: string
  oid: string
}

/** One file a turn changed: absent `before` — the turn created it; absent `after` — deleted it. */
export interface UndoChange {
  /** The session root the file is under (absolute). */
  root: string
  /** The file, relative to `root`, with `/` separators. */
  path: string
  before?: UndoFileState
  after?: UndoFileState
}

/** A turn as the undo log keeps it. */
export interface UndoTurn {
  turnId: string
  /** The person's message that started it (its first line, shortened). */
  title: string
  /** ISO 8601 time the turn ended. */
  at: string
  /** Which provider recorded it. */
  store: UndoStoreKind
  changes: UndoChange[]
  /** Files the turn touched that the store could not keep (too large), relative to their root. */
  skipped: string[]
  /** The git store's trees that hold the turn's files before and after it, per root (kept
   * reachable by refs until pruned). */
  trees?: { root: string; before: string; after: string }[]
  /** Undone by `/undo` (and not redone since). */
  undone: boolean
}

export type UndoStoreKind = 'git' | 'files'

/** A provider's record of one turn, from its first change to its end. */
export interface UndoRecorder {
  /** Before a call that may change files; `file` is the absolute path a file tool names. */
  beforeCall(file?: string): Promise<void>
  /** After such a call ended (`file` as before it): the state it left becomes the turn's latest. */
  afterCall(file?: string): Promise<void>
  /** The turn ended: what it changed. */
  finish(): Promise<Pick<UndoTurn, 'changes' | 'skipped' | 'trees'>>
}

/** A snapshot provider: records turns over a session's roots and gives back the bytes it kept. */
export interface UndoStore {
  readonly kind: UndoStoreKind
  /** A recorder for one turn of session `sessionId` over `roots`. */
  begin(sessionId: string, roots: readonly string[]): UndoRecorder
  /** The bytes of a kept file state. */
  read(sessionId: string, root: string, state: UndoFileState): Promise<Buffer>
  /**
   * Keeps what `turns` need and lets go of what `dropped` held (pruned turns, or every turn of a
   * deleted session, when `turns` is empty).
   */
  retain(sessionId: string, turns: readonly UndoTurn[], dropped: readonly UndoTurn[]): Promise<void>
  /** Lets go of what it holds open (watches); it still works after, at a walk's cost. */
  close(): void
}
