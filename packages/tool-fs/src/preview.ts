// What a write or an edit would do, worked out through ctx.fs without changing anything: the
// diff a person is shown when asked to allow the call. The checks the call itself makes come
// first (the policy's intent, the file's version as the provider judges it, its type, the
// edit's match), so a call that could not land fails here with the same error and nobody is
// asked about it. The version of the file the preview showed is kept for the call
// (./previewed-versions): the file can still change while the person is asked, and the call then
// fails as stale, changing nothing, even where what the session observed (some lines) holds.
import { isFsError } from '@deepseek-ai/dsh-fs'
import type { FsInfo, FsTarget } from '@deepseek-ai/dsh-fs'
import {
  notFoundError,
  notObservedError,
  notRegularFileError,
  planTextEdit,
  staleVersionError,
} from '@deepseek-ai/dsh-fs/provider'
import type { ToolExecution, ToolPresentationContent } from '@deepseek-ai/dsh-tools'
import type { EditArgs, WriteArgs } from './args'
import { forModel } from './failures'
import { resolveFor, type ToolFsHost } from './input'
import { formatLineCount } from './read-render'
import { countLines, textChange } from './text-change'

/** A file larger than this is not read for a preview: its diff would not be read either. */
export const PREVIEW_MAX_BYTES = 8 * 1024 * 1024

export async function previewWrite(
  host: ToolFsHost,
  args: WriteArgs,
  exec: ToolExecution,
): Promise<ToolPresentationContent[]> {
  const target = await resolveFor(host, args.file_path, exec)
  const path = target.displayPath
  try {
    const intent = host.events.waterfall('fs/write-intent', target, exec, () => undefined)
    const info = await host.fs.stat(target, exec.signal)
    if (info !== undefined) checkFile(path, info)
    if (intent?.kind === 'createIfAbsent' && info !== undefined) {
      throw notObservedError(path, 'write')
    }
    if (intent?.kind === 'replaceIfVersion') {
      if (info === undefined) throw staleVersionError(path)
      // The provider judges its own versions (one of some lines never allows a write).
      if (intent.version !== info.version) {
        host.fs.checkVersion(target, intent.version, { info }, 'write')
      }
    }
    if (info !== undefined) host.previews.record(exec, target, info.version)
    const current = info === undefined ? null : await currentText(host, target, info, exec.signal)
    if (current === undefined) {
      const lines = formatLineCount(await countLines(args.content))
      const text = `Replaces the whole of ${path} with ${lines}; its current content is too large or not text, so no diff is shown.`
      return [{ type: 'text', text }]
    }
    const { oldText, newText } = await textChange(current, args.content)
    return [{ type: 'diff', path, oldText, newText }]
  } catch (error) {
    throw forModel(error, { path, action: 'write' })
  }
}

export async function previewEdit(
  host: ToolFsHost,
  args: EditArgs,
  exec: ToolExecution,
): Promise<ToolPresentationContent[]> {
  const target = await resolveFor(host, args.file_path, exec)
  const path = target.displayPath
  try {
    const expected = host.events.waterfall('fs/edit-intent', target, exec, () => undefined)
    const info = await host.fs.stat(target, exec.signal)
    if (info === undefined) throw notFoundError(path)
    checkFile(path, info)
    const large = info.size !== undefined && info.size > PREVIEW_MAX_BYTES
    const current = large ? undefined : await host.fs.readText(target, exec.signal)
    // The provider judges its own versions (one of some lines holds while those lines do).
    if (expected !== undefined && expected.version !== info.version) {
      host.fs.checkVersion(target, expected.version, { info, text: current }, 'edit')
    }
    host.previews.record(exec, target, info.version)
    if (current === undefined) {
      const text = `Replaces ${JSON.stringify(args.old_string.slice(0, 80))} in ${path}; the file is too large to preview the change.`
      return [{ type: 'text', text }]
    }
    const plan = planTextEdit(current, {
      oldString: args.old_string,
      newString: args.new_string,
      replaceAll: args.replace_all ?? false,
    })
    const { oldText, newText } = plan.excerpt
    return [{ type: 'diff', path, oldText, newText }]
  } catch (error) {
    throw forModel(error, { path, action: 'edit' })
  }
}

/** Refuses what is there when it is not a regular file (a directory, a device…). */
export function checkFile(path: string, info: FsInfo): void {
  if (info.type === 'directory') throw notRegularFileError(path, 'a directory')
  if (info.type !== 'file') throw notRegularFileError(path, 'a special file')
}

/** The file's text, or `undefined` when it is too large to preview or not text. */
async function currentText(
  host: ToolFsHost,
  target: FsTarget,
  info: FsInfo,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  if (info.size !== undefined && info.size > PREVIEW_MAX_BYTES) return undefined
  try {
    return await host.fs.readText(target, signal)
  } catch (error) {
    if (isFsError(error, 'FS_NOT_TEXT')) return undefined
    throw error
  }
}
