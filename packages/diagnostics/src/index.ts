// The ctx.diagnostics seam: what a language server says about files a tool changed. After a
// change a file tool asks `afterChange` and appends what the change broke to its result; the
// diagnostics tool asks `current`. No process here: a provider (diagnostics-lsp) runs the
// project's own servers. Both methods are bounded in time and never reject: a server that is
// slow, absent or broken makes an answer that says so, never a failed edit.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import type { DiagnosticsChange, DiagnosticsReport, DiagnosticsSnapshot } from './types'

declare module 'cordis' {
  interface Context {
    diagnostics: Diagnostics
  }
}

export abstract class Diagnostics extends Service {
  constructor(ctx: Context) {
    super(ctx, 'diagnostics')
  }

  /** The longest `afterChange` waits for a running server, in milliseconds. */
  abstract readonly waitMs: number

  /**
   * Called once `change.path` holds its new text: tells the file's server, waits for its
   * verdict (bounded) and answers the problems the change introduced there and in the other
   * files the server reports. `exec` is the tool call that made the change: its session's
   * workspace, mode and channels (to ask before a server first starts, to give a notice).
   */
  abstract afterChange(change: DiagnosticsChange, exec?: ToolExecution): Promise<DiagnosticsReport>

  /**
   * The current problems of the file at `path` (absolute), or with no path of every file the
   * running servers have reported; errors only unless warnings were asked for.
   */
  abstract current(path: string | undefined, exec?: ToolExecution): Promise<DiagnosticsSnapshot>
}

export { diagnosticsDetails, presentDiagnostics } from './card'
export type { DiagnosticsDetails } from './card'
export {
  DIAGNOSTICS_SHOWN,
  WAITING_FOR_ANSWER,
  countIntroduced,
  formatDiagnostic,
  formatDiagnostics,
  formatReport,
} from './format'
export type { DiagnosticsFormatOptions } from './format'
export type * from './types'
