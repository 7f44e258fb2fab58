// After a write or an edit: what the change broke, from ctx.diagnostics when a provider is
// loaded (looked up at call time, so loading one later works and none costs nothing). The
// model reads it under the tool's own line; the card adds a word to its title ("1 new error")
// and the lines under the diff. The wait is the provider's, bounded there.
import type {
  Diagnostics,
  DiagnosticsChange,
  DiagnosticsDetails,
} from '@deepseek-ai/dsh-diagnostics'
import { diagnosticsDetails, formatReport, presentDiagnostics } from '@deepseek-ai/dsh-diagnostics'
import type {
  ToolExecution,
  ToolPresentationView,
  ToolResultPresentation,
} from '@deepseek-ai/dsh-tools'

/** The diagnostics provider of the app, if one is loaded now. */
export type DiagnosticsLookup = () => Diagnostics | undefined

/** What the change broke, for the model (`text`, '' when nothing to say) and the card. */
export async function diagnoseChange(
  lookup: DiagnosticsLookup | undefined,
  change: DiagnosticsChange,
  exec: ToolExecution,
): Promise<{ text: string; details?: DiagnosticsDetails }> {
  const diagnostics = lookup?.()
  if (diagnostics === undefined) return { text: '' }
  const report = await diagnostics.afterChange(change, exec)
  const text = formatReport(report, { waitedMs: diagnostics.waitMs, cwd: exec.session.header.cwd })
  const details = diagnosticsDetails(report)
  return { text, ...(details !== undefined && { details }) }
}

/** The card with the diagnostics' word in its title and their lines after its content. */
export function withDiagnostics(
  card: ToolResultPresentation | undefined,
  details: unknown,
  view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  const shown = presentDiagnostics(details, view?.cwd)
  if (card === undefined || shown === undefined) return card
  return {
    ...card,
    ...(card.title !== undefined && { title: `${card.title} (${shown.summary})` }),
    content: [...(card.content ?? []), { type: 'text', text: shown.text }],
  }
}
