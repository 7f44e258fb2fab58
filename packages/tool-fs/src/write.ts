// The `write` tool: asks `fs/write-intent` for the write's condition (the policy answers;
// none without it), writes atomically with `writeText`, then reports `fs/observed` and works
// out the change its card shows (./text-change, in slices: the content may be a huge file).
// No stat: the provider checks the condition inside its critical section. A call a person was
// asked about writes only over the version its preview showed them (./preview).
import type { FsWriteIntent } from '@deepseek-ai/dsh-fs'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type {
  ToolCallPresentation,
  ToolExecution,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import type { DiagnosticsDetails } from '@deepseek-ai/dsh-diagnostics'
import { diagnoseChange, withDiagnostics } from './diagnostics'
import { forModel } from './failures'
import { writeInput, type WriteArgs } from './args'
import { resolveFor, type ToolFsHost } from './input'
import { presentFailure, titlePath } from './present'
import { previewWrite } from './preview'
import { formatLineCount } from './read-render'
import { countLines, textChange, type TextChange } from './text-change'

/** `details` of a write, for presentation. */
export interface WriteDetails {
  /** Absolute path written. */
  path: string
  operation: 'create' | 'update'
  /** Lines of the new content. */
  lines: number
  /**
   * What changed, as a card shows it (see ./text-change): made once the file is in place;
   * absent when the provider kept no previous content.
   */
  change?: TextChange
  /** What the write broke, when a diagnostics provider said something (see ./diagnostics). */
  diagnostics?: DiagnosticsDetails
}

export const writePrompt = `## Writing files (write)
- \`write\` creates a file or replaces its whole content; missing parent directories are created.
- Creating a new file needs no read. To overwrite an existing file, read it first in this
  session; if it changed since, read it again.
- Prefer \`edit\` to change part of an existing file.`

export function createWriteTool(host: ToolFsHost) {
  return defineTool<typeof writeInput, WriteDetails>({
    name: 'write',
    description:
      'Create a file, or replace the whole content of a file read before. Prefer edit for changes.',
    input: writeInput,
    execute: (args, exec) => applyWrite(host, args, exec),
    presentCall: presentWriteCall,
    access: () => ({ effect: 'write' }),
    presentResult: presentWriteResult,
    preview: (args, exec) => previewWrite(host, args, exec),
  })
}

async function applyWrite(host: ToolFsHost, args: WriteArgs, exec: ToolExecution) {
  const target = await resolveFor(host, args.file_path, exec, true)
  const path = target.displayPath
  let outcome
  try {
    const intent = host.events.waterfall('fs/write-intent', target, exec, () => undefined)
    // Asked: the preview checked `intent` against what it showed; the file must still be that.
    const previewed = host.previews.take(exec, target)
    const condition: FsWriteIntent | undefined =
      previewed === undefined ? intent : { kind: 'replaceIfVersion', version: previewed }
    outcome = await host.fs.writeText(target, args.content, condition, exec.signal)
  } catch (error) {
    throw forModel(error, { path, action: 'write' })
  }
  host.events.emit('fs/observed', target, outcome.version, exec)
  const verb = outcome.operation === 'create' ? 'Created' : 'Updated'
  // Counted and compared in slices: the content may be a huge file, already on disk now.
  const lines = await countLines(args.content)
  const previous = outcome.operation === 'create' ? null : outcome.previousText
  const details: WriteDetails = { path, operation: outcome.operation, lines }
  if (previous !== undefined) details.change = await textChange(previous, args.content)
  const checked = await diagnoseChange(host.diagnostics, { path, before: previous }, exec)
  if (checked.details !== undefined) details.diagnostics = checked.details
  const text = `${verb} file ${path} (${formatLineCount(lines)})`
  return { content: checked.text === '' ? text : `${text}\n\n${checked.text}`, details }
}

/** The call card: `Write <path>`, kind edit, the file it writes. */
export function presentWriteCall(
  args: WriteArgs,
  view?: ToolPresentationView,
): ToolCallPresentation {
  return {
    title: `Write ${titlePath(args.file_path, view)}`,
    kind: 'edit',
    locations: [{ path: args.file_path }],
  }
}

/**
 * `Created <path>` / `Updated <path>`, the diff the write made (whole for small files, one hunk
 * with context for large ones) and its first changed line. When the replaced content is
 * unknown, a note instead of a diff that would wrongly show the whole file as new.
 */
export function presentWriteResult(
  args: WriteArgs,
  result: ToolResultView<WriteDetails>,
  view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  const card = presentWriteCard(args, result, view)
  return result.isError ? card : withDiagnostics(card, result.details?.diagnostics, view)
}

function presentWriteCard(
  args: WriteArgs,
  result: ToolResultView<WriteDetails>,
  view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  if (result.isError) return presentFailure(result, view)
  const details = result.details
  if (!isWriteDetails(details)) return undefined
  const { path, change } = details
  const title = `${details.operation === 'create' ? 'Created' : 'Updated'} ${titlePath(args.file_path, view)}`
  if (change === undefined) {
    const text = `Replaced the whole file (${formatLineCount(details.lines)}); the previous content was not kept, so no diff is shown.`
    return { title, content: [{ type: 'text', text }], locations: [{ path, line: 1 }] }
  }
  return {
    title,
    content: [{ type: 'diff', path, oldText: change.oldText, newText: change.newText }],
    locations: [{ path, line: change.line }],
  }
}

function isWriteDetails(value: unknown): value is WriteDetails {
  if (typeof value !== 'object' || value === null) return false
  const details = value as Record<string, unknown>
  const change = details.change as Record<string, unknown> | null | undefined
  return (
    typeof details.path === 'string' &&
    (details.operation === 'create' || details.operation === 'update') &&
    typeof details.lines === 'number' &&
    (change === undefined ||
      (typeof change === 'object' &&
        change !== null &&
        (typeof change.oldText === 'string' || change.oldText === null) &&
        typeof change.newText === 'string' &&
        typeof change.line === 'number'))
  )
}
