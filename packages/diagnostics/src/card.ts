// A file tool's card for the diagnostics after its change: what its result's details keep
// (the introduced problems, capped, paths absolute) and how the card shows them (a word for the
// title, one line each, paths relative to the workspace). Pure and total.
import { DIAGNOSTICS_SHOWN, countIntroduced, formatDiagnostics } from './format'
import type { DiagnosticsReport } from './types'

/** What a file tool keeps in its result's details for its card (paths absolute). */
export interface DiagnosticsDetails {
  status: DiagnosticsReport['status']
  /** The introduced problems shown (at most DIAGNOSTICS_SHOWN). */
  introduced: DiagnosticsReport['introduced']
  /** How many more were introduced than are shown. */
  more: number
  server?: string
  notice?: string
  /** `not-ready` because the person has not answered whether servers may start. */
  waitingFor?: 'answer'
}

/** The details a card needs from a report; undefined when there is nothing to show. */
export function diagnosticsDetails(report: DiagnosticsReport): DiagnosticsDetails | undefined {
  if (report.status === 'none' && report.notice === undefined) return undefined
  if (report.status === 'ready' && report.introduced.length === 0 && report.notice === undefined) {
    return undefined
  }
  return {
    status: report.status,
    introduced: report.introduced.slice(0, DIAGNOSTICS_SHOWN),
    more: Math.max(0, report.introduced.length - DIAGNOSTICS_SHOWN),
    ...(report.server !== undefined && { server: report.server }),
    ...(report.notice !== undefined && { notice: report.notice }),
    ...(report.waitingFor !== undefined && { waitingFor: report.waitingFor }),
  }
}

/**
 * A card's part for diagnostics: the word its title adds (`1 new error`, `diagnostics not
 * ready`, `diagnostics wait for your answer`) and the lines (paths relative to `cwd`). Total:
 * bad details give undefined.
 */
export function presentDiagnostics(
  details: unknown,
  cwd?: string,
): { summary: string; text: string } | undefined {
  if (!isDiagnosticsDetails(details)) return undefined
  const lines: string[] = details.notice === undefined ? [] : [details.notice]
  if (details.status === 'not-ready' && details.waitingFor === 'answer') {
    const text = "Diagnostics start once you allow the project's language servers."
    return { summary: 'diagnostics wait for your answer', text: [...lines, text].join('\n') }
  }
  if (details.status === 'not-ready') {
    return {
      summary: 'diagnostics not ready',
      text: [...lines, 'Diagnostics were not ready.'].join('\n'),
    }
  }
  const shown = formatDiagnostics(details.introduced, { ...(cwd !== undefined && { cwd }) })
  if (details.more > 0) shown.push(`… and ${details.more} more`)
  const summary = countIntroduced(details.introduced) || (details.notice ?? '')
  return { summary, text: [...lines, ...shown].join('\n') }
}

function isDiagnosticsDetails(value: unknown): value is DiagnosticsDetails {
  if (typeof value !== 'object' || value === null) return false
  const details = value as Record<string, unknown>
  return (
    typeof details.status === 'string' &&
    Array.isArray(details.introduced) &&
    details.introduced.every(isDiagnostic) &&
    typeof details.more === 'number'
  )
}

function isDiagnostic(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const item = value as Record<string, unknown>
  return (
    typeof item.path === 'string' &&
    typeof item.line === 'number' &&
    typeof item.column === 'number' &&
    typeof item.severity === 'string' &&
    typeof item.message === 'string'
  )
}
