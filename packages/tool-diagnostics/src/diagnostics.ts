// The `diagnostics` tool: a file's current errors, or every error the running language servers
// have reported, from ctx.diagnostics. Read-only; its card says how many and lists them.
import { isAbsolute, resolve } from 'node:path'
import {
  WAITING_FOR_ANSWER,
  countIntroduced,
  formatDiagnostics,
} from '@deepseek-ai/dsh-diagnostics'
import type { Diagnostic, Diagnostics, DiagnosticsSnapshot } from '@deepseek-ai/dsh-diagnostics'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type {
  ToolCallPresentation,
  ToolExecution,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import { z } from 'zod'

export const diagnosticsInput = z.object({
  file_path: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The file to check (absolute, or relative to the workspace); none: every file checked so far.',
    ),
})

export type DiagnosticsArgs = z.output<typeof diagnosticsInput>

/** `details` of a diagnostics call, for its card. */
export interface DiagnosticsToolDetails {
  status: DiagnosticsSnapshot['status']
  diagnostics: Diagnostic[]
}

export const diagnosticsPrompt = `## Errors from the compiler (diagnostics)
- After \`write\` and \`edit\`, the errors your change introduced are listed under the tool's
  result, from the project's language server (TypeScript, and others the project has). Fix them
  before you move on.
- \`diagnostics\` lists a file's current errors (or, with no file, those of every file checked
  so far): use it when an edit's result said the diagnostics were not ready.`

export function createDiagnosticsTool(diagnostics: () => Diagnostics) {
  return defineTool<typeof diagnosticsInput, DiagnosticsToolDetails>({
    name: 'diagnostics',
    description:
      "A file's current errors from the project's language server, or (no file_path) those of every file checked so far.",
    input: diagnosticsInput,
    execute: (args, exec) => runDiagnostics(diagnostics(), args, exec),
    presentCall: presentDiagnosticsCall,
    presentResult: presentDiagnosticsResult,
    access: (args, exec) => ({
      effect: 'read',
      scope: [args.file_path === undefined ? workspaceOf(exec) : pathOf(args.file_path, exec)],
    }),
  })
}

async function runDiagnostics(service: Diagnostics, args: DiagnosticsArgs, exec: ToolExecution) {
  const path = args.file_path === undefined ? undefined : pathOf(args.file_path, exec)
  const snapshot = await service.current(path, exec)
  const details: DiagnosticsToolDetails = {
    status: snapshot.status,
    diagnostics: snapshot.diagnostics,
  }
  const cwd = workspaceOf(exec)
  const what = path ?? 'the files checked so far'
  const lines: string[] = snapshot.notice === undefined ? [] : [snapshot.notice]
  if (snapshot.status === 'none') {
    lines.push(
      path === undefined
        ? 'No language server has run yet in this session.'
        : `No language server checks ${path}.`,
    )
  } else if (snapshot.waitingFor === 'answer') {
    lines.push(WAITING_FOR_ANSWER)
  } else if (snapshot.status === 'not-ready') {
    lines.push(`The language server did not answer in time for ${what}; try again in a moment.`)
  } else if (snapshot.diagnostics.length === 0) {
    lines.push(`No errors in ${what}.`)
  } else {
    lines.push(...formatDiagnostics(snapshot.diagnostics, { cwd }))
  }
  return { content: lines.join('\n'), details }
}

function workspaceOf(exec: ToolExecution): string {
  return exec.session.header.cwd
}

function pathOf(filePath: string, exec: ToolExecution): string {
  return isAbsolute(filePath) ? filePath : resolve(workspaceOf(exec), filePath)
}

export function presentDiagnosticsCall(args: DiagnosticsArgs): ToolCallPresentation {
  return {
    title: args.file_path === undefined ? 'Diagnostics' : `Diagnostics ${args.file_path}`,
    kind: 'read',
    ...(args.file_path !== undefined && { locations: [{ path: args.file_path }] }),
  }
}

/** `Diagnostics src/a.ts: 2 errors`, the lines, and each problem's place. */
export function presentDiagnosticsResult(
  args: DiagnosticsArgs,
  result: ToolResultView<DiagnosticsToolDetails>,
  _view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  const details = result.details
  if (result.isError || details === undefined || !Array.isArray(details.diagnostics))
    return undefined
  const base = presentDiagnosticsCall(args).title
  const count = countIntroduced(details.diagnostics).replace(/new /g, '') || 'no errors'
  const title = details.status === 'ready' ? `${base}: ${count}` : base
  const text = result.content.map((block) => block.text).join('\n')
  return {
    title,
    content: [{ type: 'text', text }],
    locations: details.diagnostics
      .slice(0, 20)
      .map((item) => ({ path: item.path, line: item.line })),
  }
}
