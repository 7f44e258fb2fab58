// Writes and edits of targets resolved for an editor. Each runs under a per-target lock, in
// call order, and checks everything inside it against the text the editor returns right then
// (the version — of the whole buffer, or of the lines a ranged read saw: ./editor-lines —,
// createIfAbsent, the edit's matches); the new whole text then goes out as ONE
// fs/write_text_file (waited for until answered or cancelled: the editor may ask the person),
// or, for an editor that can only read, to the disk with no condition (already checked).
// Between that check and the editor's write the person can still type: ACP has no
// conditional write, so this is the narrowest the race can be. Right before the
// editor is asked to write, the path must still lead to the place the call judged (the disk
// checks it), else FS_PATH_CHANGED and the editor is not asked.
// Not here: targets the disk serves (handed to LocalDisk whole), the calls (client.ts).
import type {
  FsEditExpectation,
  FsEditOutcome,
  FsEditRequest,
  FsTarget,
  FsVersion,
  FsWriteIntent,
  FsWriteOutcome,
} from '@deepseek-ai/dsh-fs'
import {
  checkEditRequest,
  hasUtf8Bom,
  KeyedMutex,
  notObservedError,
  partlyObservedError,
  planTextEdit,
  staleVersionError,
  throwIfAborted,
  tooLargeError,
  type TextMatch,
} from '@deepseek-ai/dsh-fs/provider'
import type { LocalDisk } from '@deepseek-ai/dsh-fs-local'
import { writeThroughEditor, type AcpFsClient } from './client'
import { makeParentFolders, removeFolders } from './folders'
import { editorVersionHolds, parseLinesVersion } from './editor-lines'
import { editorVersion, readableText, splitBom, utf8Length, withBom } from './editor-text'
import { editorServes, type EditorRoutes } from './route'

/** Up to this size an update reports the text it replaced (as the disk does). */
const PREVIOUS_TEXT_MAX = 1024 * 1024

export class EditorMutations {
  private readonly locks = new KeyedMutex()

  constructor(
    private readonly disk: LocalDisk,
    private readonly routes: EditorRoutes,
    private readonly maxEditBytes: number,
  ) {}

  async write(
    target: FsTarget,
    client: AcpFsClient,
    content: string,
    intent: FsWriteIntent | undefined,
    signal?: AbortSignal,
  ): Promise<FsWriteOutcome> {
    const path = target.displayPath
    throwIfAborted(signal, path)
    // Queued before the first await: writes and edits of one target keep their call order.
    return this.locks.run(target.targetKey, async (): Promise<FsWriteOutcome> => {
      this.routes.forget(target)
      const route = await this.routes.route(target, client, signal)
      if (route.kind === 'disk' || (route.kind === 'absent' && !client.canWrite)) {
        const outcome = await this.disk.writeText(target, content, intent, signal)
        return { ...outcome, version: await this.versionOnDisk(target, content, outcome.version) }
      }
      if (route.kind === 'absent') {
        if (intent?.kind === 'replaceIfVersion') throw staleVersionError(path)
        const made = await makeParentFolders(this.disk, target, signal)
        try {
          const version = await this.commit(target, client, content, signal)
          return { operation: 'create', version, previousText: null }
        } catch (error) {
          await removeFolders(made)
          throw error
        }
      }
      if (intent?.kind === 'createIfAbsent') throw notObservedError(path, 'write')
      const current = await this.routes.read(target, client, signal)
      // The editor stopped answering reads: the disk has the session's files now.
      if (current === undefined) return this.disk.writeText(target, content, intent, signal)
      if (intent?.kind === 'replaceIfVersion') {
        // A write replaces every line: having seen some of them is not enough.
        if (parseLinesVersion(intent.version) !== undefined) throw partlyObservedError(path)
        if (intent.version !== editorVersion(current)) throw staleVersionError(path)
      }
      const next = withBom(content, splitBom(current).bom)
      const version = await this.commit(target, client, next, signal)
      return { operation: 'update', version, previousText: previousTextOf(current) }
    })
  }

  async edit(
    target: FsTarget,
    client: AcpFsClient,
    request: FsEditRequest,
    expected: FsEditExpectation | undefined,
    signal?: AbortSignal,
  ): Promise<FsEditOutcome> {
    const path = target.displayPath
    throwIfAborted(signal, path)
    return this.locks.run(target.targetKey, async () => {
      this.routes.forget(target)
      checkEditRequest(request, path)
      const route = await this.routes.route(target, client, signal)
      if (route.kind !== 'editor') return this.disk.editText(target, request, expected, signal)
      const current = await this.routes.read(target, client, signal)
      if (current === undefined) return this.disk.editText(target, request, expected, signal)
      if (expected && !editorVersionHolds(expected.version, current)) throw staleVersionError(path)
      const size = utf8Length(current)
      if (size > this.maxEditBytes) throw tooLargeError(path, size, this.maxEditBytes)
      const text = readableText(current, path)
      const plan = planTextEdit(text, request, path)
      const next = withBom(spliceMatches(text, plan.matches), splitBom(current).bom)
      return {
        replacements: plan.replacements,
        replaceAll: request.replaceAll === true,
        version: await this.commit(target, client, next, signal),
        line: plan.line,
        excerpt: plan.excerpt,
      }
    })
  }

  /**
   * Puts the whole new text in place and returns the version the next stat will report: through
   * the editor when it can write; else (or when the new file is one the editor would not serve:
   * too large, a NUL in its head) on disk, with no condition — the caller checked them.
   */
  private async commit(
    target: FsTarget,
    client: AcpFsClient,
    text: string,
    signal?: AbortSignal,
  ): Promise<FsVersion> {
    const served = editorServes(text, this.routes.options.maxEditorBytes)
    if (client.canWrite && served) {
      // The editor writes by path: the path must still lead where the call was judged to write.
      await this.disk.checkPlace(target)
      // It may put the change to the person first: the call's card says where it waits.
      this.routes.waiting(target, client, 'with the editor: waiting for it to apply the change')
      await writeThroughEditor(client, target.displayPath, text, signal)
      return editorVersion(text)
    }
    throwIfAborted(signal, target.displayPath)
    const outcome = await this.disk.writeText(target, text, undefined, signal)
    return this.versionOnDisk(target, text, outcome.version)
  }

  /**
   * The version the next stat reports after the disk wrote `text` (keeping the file's BOM):
   * the disk's when the editor does not serve the new file, else the hash of the text the
   * editor will read there. No signal: the write is done, and its outcome must be reported.
   */
  private async versionOnDisk(
    target: FsTarget,
    text: string,
    diskVersion: FsVersion,
  ): Promise<FsVersion> {
    if (!editorServes(text, this.routes.options.maxEditorBytes)) return diskVersion
    let bom = false
    for await (const head of this.disk.streamBytes(target)) {
      bom = hasUtf8Bom(head)
      break
    }
    return editorVersion(withBom(text, bom))
  }
}

/** The text with each match replaced. */
function spliceMatches(text: string, matches: readonly TextMatch[]): string {
  const pieces: string[] = []
  let cursor = 0
  for (const match of matches) {
    pieces.push(text.slice(cursor, match.start), match.replacement)
    cursor = match.end
  }
  pieces.push(text.slice(cursor))
  return pieces.join('')
}

/** The replaced text without its BOM, when it is small text (else not kept, as on disk). */
function previousTextOf(current: string): string | undefined {
  if (current.includes('\0') || utf8Length(current) > PREVIOUS_TEXT_MAX) return undefined
  return splitBom(current).text
}
