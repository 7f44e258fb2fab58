// What a change introduced: the problems after it minus those before it, matched by file,
// severity, code and message (never by line, so an edit that shifts old errors down does not
// make them new), each earlier one matching one later one. Plus the conversions from LSP's and
// tsserver's shapes, and the text before an edit rebuilt from its excerpt. Pure.
import type {
  Diagnostic,
  DiagnosticSeverity,
  DiagnosticsChange,
} from '@deepseek-ai/dsh-diagnostics'
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol'

export function introducedBy(
  before: readonly Diagnostic[],
  after: readonly Diagnostic[],
): Diagnostic[] {
  const left = new Map<string, number>()
  for (const item of before) left.set(keyOf(item), (left.get(keyOf(item)) ?? 0) + 1)
  const introduced: Diagnostic[] = []
  for (const item of after) {
    const count = left.get(keyOf(item)) ?? 0
    if (count > 0) left.set(keyOf(item), count - 1)
    else introduced.push(item)
  }
  return introduced
}

function keyOf(item: Diagnostic): string {
  return JSON.stringify([item.path, item.severity, item.code ?? '', item.message])
}

const SEVERITIES: Record<number, DiagnosticSeverity> = {
  1: 'error',
  2: 'warning',
  3: 'information',
  4: 'hint',
}

/** An LSP diagnostic of the file at `path` (1-based positions; no severity counts as an error). */
export function fromLsp(path: string, item: LspDiagnostic, server: string): Diagnostic {
  const code = item.code === undefined ? undefined : String(item.code)
  const prefix = server === 'typescript' && code !== undefined && /^\d+$/.test(code) ? 'TS' : ''
  return {
    path,
    line: item.range.start.line + 1,
    column: item.range.start.character + 1,
    severity: SEVERITIES[item.severity ?? 1] ?? 'error',
    ...(code !== undefined && { code: prefix + code }),
    message: typeof item.message === 'string' ? item.message : item.message.value,
  }
}

/** One item of tsserver's `semanticDiagnosticsSync` / `syntacticDiagnosticsSync` body. */
export interface TsserverDiagnostic {
  start: { line: number; offset: number }
  text: string
  code?: number
  category?: string
}

export function fromTsserver(path: string, item: TsserverDiagnostic): Diagnostic {
  const severity: DiagnosticSeverity =
    item.category === 'warning' ? 'warning' : item.category === 'suggestion' ? 'hint' : 'error'
  return {
    path,
    line: item.start.line,
    column: item.start.offset,
    severity: item.category === 'message' ? 'information' : severity,
    ...(item.code !== undefined && { code: `TS${item.code}` }),
    message: item.text,
  }
}

/**
 * The file's whole text before the change, when the change says it or its excerpt lets it be
 * rebuilt from the text after; `null` for a created file; undefined when it cannot be known.
 */
export function textBefore(change: DiagnosticsChange, after: string): string | null | undefined {
  if (change.before !== undefined) return change.before
  const excerpt = change.excerpt
  if (excerpt === undefined) return undefined
  const lines = after.split('\n')
  const head = lines.slice(0, excerpt.startLine - 1).join('\n')
  const newText = excerpt.newText
  const at = head.length + (excerpt.startLine > 1 ? 1 : 0)
  if (after.slice(at, at + newText.length) !== newText) return undefined
  return after.slice(0, at) + excerpt.oldText + after.slice(at + newText.length)
}
