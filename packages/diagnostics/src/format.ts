// How diagnostics read, for the model and for a card: one line each
// (`src/count.ts:2:10 error TS2322: Type 'string' is not assignable to type 'number'.`), paths
// relative to the session workspace when inside it, a cap with a count of the rest, and the
// word a card's title takes ("1 new error"). Pure and total.
import { isAbsolute, relative } from 'node:path'
import type { Diagnostic, DiagnosticsReport } from './types'

/** Problems listed before the rest are only counted. */
export const DIAGNOSTICS_SHOWN = 20

export interface DiagnosticsFormatOptions {
  /** The session workspace: paths inside it are shown relative. */
  cwd?: string
  /** At most this many lines, then `… and N more`; default DIAGNOSTICS_SHOWN. */
  max?: number
}

/** `file:line:col severity CODE: message`, a multi-line message indented under its first line. */
export function formatDiagnostic(diagnostic: Diagnostic, cwd?: string): string {
  const { line, column, severity, code, message } = diagnostic
  const where = `${shownPath(diagnostic.path, cwd)}:${line}:${column}`
  const text = message.trim().replace(/\r?\n/g, '\n  ')
  return `${where} ${severity}${code === undefined ? '' : ` ${code}`}: ${text}`
}

/** The lines of a list, capped, with `… and N more` when some are left out. */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  options: DiagnosticsFormatOptions = {},
): string[] {
  const max = options.max ?? DIAGNOSTICS_SHOWN
  const lines = diagnostics.slice(0, max).map((item) => formatDiagnostic(item, options.cwd))
  const rest = diagnostics.length - lines.length
  if (rest > 0) lines.push(`… and ${rest} more`)
  return lines
}

/** `1 new error`, `2 new errors, 1 new warning`: what a card's title adds; '' when nothing new. */
export function countIntroduced(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((item) => item.severity === 'error').length
  const others = diagnostics.length - errors
  const parts: string[] = []
  if (errors > 0) parts.push(`${errors} new error${errors === 1 ? '' : 's'}`)
  if (others > 0) parts.push(`${others} new warning${others === 1 ? '' : 's'}`)
  return parts.join(', ')
}

/**
 * What a file tool's result adds for the model after a change: the problems it introduced, or
 * that the server was not ready; '' when there is nothing to say (none introduced, no server).
 */
export function formatReport(
  report: DiagnosticsReport,
  options: DiagnosticsFormatOptions & { waitedMs?: number } = {},
): string {
  const parts: string[] = []
  if (report.notice !== undefined) parts.push(report.notice)
  if (report.status === 'not-ready' && report.waitingFor === 'answer') {
    parts.push(WAITING_FOR_ANSWER)
  } else if (report.status === 'not-ready') {
    const waitedMs = report.waitedMs ?? options.waitedMs
    const waited = waitedMs === undefined ? '' : ` within ${formatSeconds(waitedMs)}`
    parts.push(
      `Diagnostics were not ready${waited} (the ${report.server ?? 'language'} server is still ` +
        'working); call the diagnostics tool later to see the errors.',
    )
  } else if (report.introduced.length > 0) {
    const what = countIntroduced(report.introduced)
    const head = `This change introduced ${what} (${report.server ?? 'language server'}):`
    parts.push([head, ...formatDiagnostics(report.introduced, options)].join('\n'))
  }
  return parts.join('\n')
}

/** What the model reads while the person has not said whether language servers may start. */
export const WAITING_FOR_ANSWER =
  "Diagnostics wait for the person's answer: they were asked whether the project's language " +
  'servers may start here. Once they allow it, call the diagnostics tool to see the errors.'

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}

function shownPath(path: string, cwd: string | undefined): string {
  if (cwd === undefined || !isAbsolute(path)) return path
  const rel = relative(cwd, path)
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel
}
