// Types of the ctx.diagnostics seam: one problem a language server reports, the change a file
// tool made, and what the seam answers after it. Provider-neutral: no LSP type appears here.

export type DiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint'

/** One problem in one file, as a compiler or linter reports it. */
export interface Diagnostic {
  /** Absolute path of the file. */
  path: string
  /** 1-based line and column where the problem starts. */
  line: number
  column: number
  severity: DiagnosticSeverity
  /** The tool's code for it (`TS2322`), when it has one. */
  code?: string
  message: string
}

/** A file a tool has just changed on disk, and what it held before when the tool knows. */
export interface DiagnosticsChange {
  /** Absolute path of the changed file (its new text is on disk). */
  path: string
  /**
   * The whole text before the change: `null` when the change created the file, absent when
   * the tool does not know it (then `excerpt` may say what the changed lines held).
   */
  before?: string | null
  /** The changed lines before and after, from 1-based `startLine` (an edit of a large file). */
  excerpt?: { startLine: number; oldText: string; newText: string }
}

/**
 * What a language server said after a change, or why it said nothing:
 * - `ready`: the server checked the change in time; `introduced` is what it broke;
 * - `not-ready`: the server did not answer within the bound (starting, busy or hung);
 * - `none`: no server handles this file (a language without one, or one turned off).
 */
export type DiagnosticsStatus = 'ready' | 'not-ready' | 'none'

export interface DiagnosticsReport {
  status: DiagnosticsStatus
  /**
   * The problems the change introduced, in the changed file first then in the other files
   * the server reported, minus those there before; errors only unless warnings were asked for.
   */
  introduced: Diagnostic[]
  /** The server that answered (`typescript`), when one did or was waited for. */
  server?: string
  /** One line a person and the model should read (a server that crashed and was turned off). */
  notice?: string
  /** How long the provider waited for the server, in milliseconds (said when not ready). */
  waitedMs?: number
  /**
   * Why it is `not-ready` when the server is not the cause: `answer`, the person has not yet
   * said whether language servers may start in this workspace (they start once allowed).
   */
  waitingFor?: 'answer'
}

/** The current problems of one file or of every file a server has reported. */
export interface DiagnosticsSnapshot {
  status: DiagnosticsStatus
  diagnostics: Diagnostic[]
  notice?: string
  /** As in DiagnosticsReport: `not-ready` while the person has not answered. */
  waitingFor?: 'answer'
}
