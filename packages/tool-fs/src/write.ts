// The `write` tool: asks `fs/write-intent` for the write's condition (the policy answers;
// none without it), writes atomically with `writeText`, then reports `fs/observed`.
// No stat: the provider checks the condition inside its critical section.
import { z } from 'zod'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type {
  ToolCallPresentation,
  ToolExecution,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import { forModel } from './failures'
import { filePathInput, resolveFor, type ToolFsHost } from './input'
import { diffBlock, firstChangedLine, titlePath } from './present'
import { previewWrite } from './preview'
import { countTextLines, formatLineCount } from './read-render'

export const writeInput = z.object({
  file_path: filePathInput(
    'The file to write: an absolute path, or a path relative to the workspace.',
  ),
  content: z.string().describe('The whole new content of the file.'),
})

export type WriteArgs = z.infer<typeof writeInput>

/** `details` of a write, for presentation. */
export interface WriteDetails {
  /** Absolute path written. */
  path: string
  operation: 'create' | 'update'
  /** The replaced content: `null` for a created file, `undefined` when the provider kept none. */
  oldText?: string | null
  newText: string
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
    outcome = await host.fs.writeText(target, args.content, intent, exec.signal)
  } catch (error) {
    throw forModel(error, { path, action: 'write' })
  }
  host.events.emit('fs/observed', target, outcome.version, exec)
  const verb = outcome.operation === 'create' ? 'Created' : 'Updated'
  const details: WriteDetails = {
    path,
    operation: outcome.operation,
    oldText: outcome.previousText,
    newText: args.content,
  }
  return {
    content: `${verb} file ${path} (${formatLineCount(countTextLines(args.content))})`,
    details,
  }
}

/** The seed's call card: `Write <path>`, kind edit, the file. */
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
 * `Created <path>` / `Updated <path>`, a diff (whole for small files, one hunk with context
 * for large ones) and the first changed line. When the replaced content is unknown, a note
 * instead of a diff that would wrongly show the whole file as new.
 */
export function presentWriteResult(
  args: WriteArgs,
  result: ToolResultView<WriteDetails>,
  view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  const details = result.details
  if (result.isError || !isWriteDetails(details)) return undefined
  const shown = titlePath(args.file_path, view)
  const { path, oldText, newText } = details
  if (details.operation === 'create') {
    return {
      title: `Created ${shown}`,
      content: [diffBlock(path, null, newText)],
      locations: [{ path, line: 1 }],
    }
  }
  if (typeof oldText !== 'string') {
    const text = `Replaced the whole file (${formatLineCount(countTextLines(newText))}); the previous content was not kept, so no diff is shown.`
    return {
      title: `Updated ${shown}`,
      content: [{ type: 'text', text }],
      locations: [{ path, line: 1 }],
    }
  }
  return {
    title: `Updated ${shown}`,
    content: [diffBlock(path, oldText, newText)],
    locations: [{ path, line: firstChangedLine(oldText, newText) }],
  }
}

function isWriteDetails(value: unknown): value is WriteDetails {
  if (typeof value !== 'object' || value === null) return false
  const details = value as Record<string, unknown>
  return (
    typeof details.path === 'string' &&
    (details.operation === 'create' || details.operation === 'update') &&
    typeof details.newText === 'string'
  )
}
