// The `edit` tool: checks its arguments (before any I/O), asks `fs/edit-intent` for the
// version the edit expects (the policy answers, or refuses an unread file), replaces with
// `editText` in one critical section, then reports `fs/observed`. No stat. A call a person
// was asked about expects instead the version its preview showed them (./preview).
import type { FsError, FsTextExcerpt } from '@deepseek-ai/dsh-fs'
import { invalidEditError } from '@deepseek-ai/dsh-fs/provider'
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
import { editInput, type EditArgs } from './args'
import { resolveFor, type ToolFsHost } from './input'
import { formatEditClip, presentFailure, titlePath } from './present'
import { previewEdit } from './preview'

/** `details` of an edit, for presentation. */
export interface EditDetails {
  /** Absolute path edited. */
  path: string
  replacements: number
  /** 1-based line where the first replacement starts. */
  line: number
  /** The changed region before and after, with some context (the whole file when small). */
  excerpt: FsTextExcerpt
  /** What the edit broke, when a diagnostics provider said something (see ./diagnostics). */
  diagnostics?: DiagnosticsDetails
}

export const editPrompt = `## Editing files (edit)
- Read the file first in this session; if a tool says it changed, read it again.
- \`old_string\` must match the file exactly, whitespace and indentation included. Copy it
  from the read output without the \`N: \` line-number prefix.
- \`old_string\` must occur once: add surrounding lines to make it unique, or set
  \`replace_all\` to change every occurrence. \`new_string\` must differ from it.
- After a successful edit or write you may edit the same file again without a new read.
- A file attached to the person's message (an \`<attachment>\` block) does not count as read:
  its text may be an unsaved buffer the tools never saw. Read it before you edit or write it.`

export function createEditTool(host: ToolFsHost) {
  return defineTool<typeof editInput, EditDetails>({
    name: 'edit',
    description:
      'Replace exact text in a file read before: old_string once (or every occurrence with replace_all).',
    input: editInput,
    execute: (args, exec) => applyEdit(host, args, exec),
    presentCall: presentEditCall,
    access: () => ({ effect: 'write' }),
    presentResult: presentEditResult,
    preview: (args, exec) => {
      const invalid = checkEditArgs(args)
      if (invalid !== undefined) throw forModel(invalid, { path: args.file_path, action: 'edit' })
      return previewEdit(host, args, exec)
    },
  })
}

/** The edit's argument errors, found without touching the file; undefined when none. */
function checkEditArgs(args: EditArgs): FsError | undefined {
  if (args.old_string === '') return invalidEditError('empty-old-string')
  if (args.old_string === args.new_string) return invalidEditError('unchanged')
  return undefined
}

async function applyEdit(host: ToolFsHost, args: EditArgs, exec: ToolExecution) {
  const invalid = checkEditArgs(args)
  if (invalid !== undefined) throw forModel(invalid, { path: args.file_path, action: 'edit' })
  const target = await resolveFor(host, args.file_path, exec, true)
  const path = target.displayPath
  const request = {
    oldString: args.old_string,
    newString: args.new_string,
    replaceAll: args.replace_all ?? false,
  }
  let outcome
  try {
    const expected = host.events.waterfall('fs/edit-intent', target, exec, () => undefined)
    // Asked: the preview checked `expected` against what it showed; the file must still be that.
    const previewed = host.previews.take(exec, target)
    const condition = previewed === undefined ? expected : { version: previewed }
    outcome = await host.fs.editText(target, request, condition, exec.signal)
  } catch (error) {
    throw forModel(error, { path, action: 'edit' })
  }
  host.events.emit('fs/observed', target, outcome.version, exec)
  const { replacements, line } = outcome
  const what =
    replacements === 1
      ? `replaced 1 occurrence at line ${line}`
      : `replaced ${replacements} occurrences (the first at line ${line})`
  const details: EditDetails = { path, replacements, line, excerpt: outcome.excerpt }
  const { excerpt } = outcome
  const change = excerpt.whole ? { path, before: excerpt.oldText } : { path, excerpt }
  const checked = await diagnoseChange(host.diagnostics, change, exec)
  if (checked.details !== undefined) details.diagnostics = checked.details
  const text = `Edited file ${path}: ${what}.`
  return { content: checked.text === '' ? text : `${text}\n\n${checked.text}`, details }
}

/** The call card: `Edit <path>`, kind edit, `"old…" → "new…"` as its input, the file. */
export function presentEditCall(args: EditArgs, view?: ToolPresentationView): ToolCallPresentation {
  return {
    title: `Edit ${titlePath(args.file_path, view)}`,
    kind: 'edit',
    rawInput: formatEditClip(args.old_string, args.new_string),
    locations: [{ path: args.file_path }],
  }
}

/** `Edited <path>` (plus `(N replacements)` when several), the excerpt's diff, the line. */
export function presentEditResult(
  args: EditArgs,
  result: ToolResultView<EditDetails>,
  view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  const card = presentEditCard(args, result, view)
  return result.isError ? card : withDiagnostics(card, result.details?.diagnostics, view)
}

function presentEditCard(
  args: EditArgs,
  result: ToolResultView<EditDetails>,
  view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  if (result.isError) return presentFailure(result, view)
  const details = result.details
  if (!isEditDetails(details)) return undefined
  const { path, replacements, line, excerpt } = details
  const count = replacements === 1 ? '' : ` (${replacements} replacements)`
  return {
    title: `Edited ${titlePath(args.file_path, view)}${count}`,
    content: [{ type: 'diff', path, oldText: excerpt.oldText, newText: excerpt.newText }],
    locations: [{ path, line }],
  }
}

function isEditDetails(value: unknown): value is EditDetails {
  if (typeof value !== 'object' || value === null) return false
  const details = value as Record<string, unknown>
  const excerpt = details.excerpt as Record<string, unknown> | null | undefined
  return (
    typeof details.path === 'string' &&
    typeof details.replacements === 'number' &&
    typeof details.line === 'number' &&
    typeof excerpt === 'object' &&
    excerpt !== null &&
    typeof excerpt.oldText === 'string' &&
    typeof excerpt.newText === 'string'
  )
}
