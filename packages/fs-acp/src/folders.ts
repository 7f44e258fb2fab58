// The folders a new file needs, made on disk before the editor is asked to write it: ACP's
// fs/write_text_file does not say whether an editor creates missing parent folders, and some
// do not. Called by the provider for a write the caller already decided to make (the permission
// layer asked or allowed it before the tool ran), at the write, never at a preview. A write
// that then fails takes the empty folders it made away again.
// Not here: the write itself (mutate.ts), paths the disk serves (LocalDisk makes its own).
import { mkdir, rmdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { FsTarget } from '@deepseek-ai/dsh-fs'
import { parentNotDirectoryError, throwIfAborted } from '@deepseek-ai/dsh-fs/provider'
import { toFsError, type LocalDisk } from '@deepseek-ai/dsh-fs-local'

/**
 * Makes the missing parent folders of `target`, outermost first, and returns them (empty when
 * none was missing). The nearest existing ancestor must be a folder (FS_NOT_FOUND otherwise, as
 * on disk): nothing is made below a file.
 */
export async function makeParentFolders(
  disk: LocalDisk,
  target: FsTarget,
  signal?: AbortSignal,
): Promise<string[]> {
  const missing: string[] = []
  for (let at = dirname(target.displayPath); ; at = dirname(at)) {
    const info = await disk.stat(await disk.resolve(at), signal)
    if (info !== undefined) {
      if (info.type !== 'directory') throw parentNotDirectoryError(target.displayPath)
      break
    }
    missing.unshift(at)
    if (dirname(at) === at) break
  }
  const made: string[] = []
  try {
    for (const folder of missing) {
      throwIfAborted(signal, target.displayPath)
      // recursive: a folder another writer made meanwhile is fine, a file there still fails.
      if ((await mkdir(folder, { recursive: true })) !== undefined) made.push(folder)
    }
  } catch (error) {
    await removeFolders(made)
    throw toFsError(error, target.displayPath)
  }
  return made
}

/** Removes folders `makeParentFolders` made, innermost first, while they are still empty. */
export async function removeFolders(folders: readonly string[]): Promise<void> {
  for (const folder of [...folders].reverse()) {
    // Best effort: a folder something was put in meanwhile stays, and so does any above it.
    const removed = await rmdir(folder).then(
      () => true,
      () => false,
    )
    if (!removed) return
  }
}
