// tool-diagnostics: the `diagnostics` tool over ctx.diagnostics, and the prompt section that
// tells a model that its edits' results carry the errors they made. A function plugin: what it
// registers goes away when it is disposed. It needs a provider (diagnostics-lsp) loaded.
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-diagnostics' // for its augmentation: ctx.diagnostics
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import type {} from '@deepseek-ai/dsh-tools' // for its augmentation: ctx.tools
import { createDiagnosticsTool, diagnosticsPrompt } from './diagnostics'

export const name = 'tool-diagnostics'

export const inject = ['tools', 'systemPrompt', 'diagnostics']

export function apply(ctx: Context): void {
  ctx.tools.register(createDiagnosticsTool(() => ctx.diagnostics))
  ctx.systemPrompt.add({ name: 'tool-diagnostics', text: diagnosticsPrompt })
}

export {
  diagnosticsInput,
  diagnosticsPrompt,
  presentDiagnosticsCall,
  presentDiagnosticsResult,
} from './diagnostics'
export type { DiagnosticsArgs, DiagnosticsToolDetails } from './diagnostics'
