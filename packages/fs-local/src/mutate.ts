// The two mutations, each run by the caller inside the per-target lock of this process, on the
// file held (held-file.ts: its judged directory open, the lock between processes taken): every
// check (abort, intent, expected version, type, size) happens against the file as it is inside
// that critical section, and the new bytes go through the atomic save path. Right before the
// rename the file's version is checked once more, so a program that takes no lock (an editor)
// loses its change as rarely as the disk allows: the call fails stale instead.
import { constants, type BigIntStats } from 'node:fs'
import { access } from 'node:fs/promises'
import {
  FsError,
  type FsEditExpectation,
  type FsEditOutcome,
  type FsEditRequest,
  type FsWriteIntent,
  type FsWriteOutcome,
} from '@deepseek-ai/dsh-fs'
import {
  checkEditRequest,
  decodeText,
  editedBytePieces,
  encodeText,
  hasUtf8Bom,
  notObservedError,
  planTextEdit,
  staleVersionError,
  throwIfAborted,
  tooLargeError,
  type TextEditPlan,
} from '@deepseek-ai/dsh-fs/provider'
import { writeFileAtomic } from './atomic-write'
import { hasNodeCode, nodeCode, toFsError } from './errors'
import { checkRegular, openRegular, readRegular, versionOf } from './file-info'
import { versionAfterWrite, withFile, type MutationPlace } from './held-file'

/** Up to this size an update reports the text it replaced. */
export const PREVIOUS_TEXT_MAX = 1024 * 1024

export async function writeTextAt(
  place: MutationPlace,
  content: string,
  intent?: FsWriteIntent,
): Promise<FsWriteOutcome> {
  const { display, signal } = place
  throwIfAborted(signal, display)
  // A file that must exist is not given new parent directories: without them it changed.
  const guarded = intent?.kind === 'replaceIfVersion'
  const gone = guarded ? () => staleVersionError(display) : undefined
  return withFile(
    place,
    !guarded,
    async (file) => {
      const existing = await file.current()
      if (existing) checkRegular(existing, display)
      if (intent?.kind === 'createIfAbsent' && existing) throw notObservedError(display)
      if (intent?.kind === 'replaceIfVersion') {
        if (!existing || versionOf(existing) !== intent.version) throw staleVersionError(display)
      }
      if (existing) await checkWritable(file.at, display)
      const previous = existing ? await readPrevious(file.at, display, existing) : undefined
      throwIfAborted(signal, display)
      const seen = existing && versionOf(existing)
      await writeFileAtomic(
        file.directory,
        file.name,
        encodeText(content, previous?.bom ?? false),
        {
          ...keepFrom(existing, display),
          // An unconditional write replaces whatever is there; a guarded one only what it checked.
          beforeRename: intent === undefined ? undefined : () => file.recheck(seen),
        },
      )
      const version = await versionAfterWrite(file)
      if (!existing) return { operation: 'create', version, previousText: null }
      return { operation: 'update', version, previousText: previous?.text }
    },
    gone,
  )
}

export async function editTextAt(
  place: MutationPlace,
  request: FsEditRequest,
  expected: FsEditExpectation | undefined,
  maxEditBytes: number,
): Promise<FsEditOutcome> {
  const { display, signal } = place
  throwIfAborted(signal, display)
  checkEditRequest(request, display)
  return withFile(place, false, async (held) => {
    const file = await held.open()
    let bytes: Uint8Array
    try {
      if (expected && expected.version !== file.version) throw staleVersionError(display)
      if (file.stats.size > BigInt(maxEditBytes)) {
        throw tooLargeError(display, Number(file.stats.size), maxEditBytes)
      }
      bytes = await file.handle.readFile()
    } catch (error) {
      throw toFsError(error, display)
    } finally {
      await file.handle.close()
    }
    await checkWritable(held.at, display)
    const edit = planEdit(bytes, request, display)
    throwIfAborted(signal, display)
    // The edit is made from the bytes read: it lands only over that very file.
    await writeFileAtomic(held.directory, held.name, edit.pieces, {
      ...keepFrom(file.stats, display),
      beforeRename: () => held.recheck(file.version),
    })
    return {
      replacements: edit.replacements,
      replaceAll: request.replaceAll === true,
      version: await versionAfterWrite(held),
      line: edit.line,
      excerpt: edit.excerpt,
    }
  })
}

/**
 * Decodes and matches, and returns the new file as pieces (runs of `bytes` between the matches
 * and the encoded replacements). The decoded text lives only in here, so it can be collected
 * while the pieces are written: the edit never holds the file's text and a second copy of it.
 */
function planEdit(
  bytes: Uint8Array,
  request: FsEditRequest,
  display: string,
): Omit<TextEditPlan, 'matches'> & { pieces: Uint8Array[] } {
  const { text, bom } = decodeText(bytes, display)
  const { matches, ...plan } = planTextEdit(text, request, display)
  return { ...plan, pieces: editedBytePieces(bytes, text, matches, bom) }
}

/** The replaced file's BOM, and its text when it is small text. */
async function readPrevious(
  at: string,
  display: string,
  stats: BigIntStats,
): Promise<{ bom: boolean; text?: string }> {
  if (stats.size > BigInt(PREVIOUS_TEXT_MAX)) {
    const file = await openRegular(at, display, { noFollow: true })
    try {
      const head = new Uint8Array(3)
      const { bytesRead } = await file.handle.read(head, 0, 3, 0)
      return { bom: hasUtf8Bom(head.subarray(0, bytesRead)) }
    } catch (error) {
      throw toFsError(error, display)
    } finally {
      await file.handle.close()
    }
  }
  const { bytes } = await readRegular(at, display, { noFollow: true })
  try {
    return { bom: hasUtf8Bom(bytes), text: decodeText(bytes, display).text }
  } catch {
    // Not text: it is replaced all the same; the outcome just carries no previous text.
    return { bom: hasUtf8Bom(bytes) }
  }
}

function keepFrom(stats: BigIntStats | undefined, display: string) {
  if (!stats) return { display }
  return {
    display,
    mode: Number(stats.mode & 0o7777n),
    owner: { uid: Number(stats.uid), gid: Number(stats.gid) },
  }
}

/**
 * A file this process may not write is refused, as an editor refuses it: the rename that
 * replaces it needs only the directory to be writable, and would otherwise pass over the
 * file's read-only bits. (Root may write anything, here as with any write.)
 */
async function checkWritable(path: string, display: string): Promise<void> {
  try {
    await access(path, constants.W_OK)
  } catch (error) {
    if (!hasNodeCode(error, 'EACCES', 'EPERM', 'EROFS')) throw toFsError(error, display)
    throw new FsError(
      'FS_PERMISSION_DENIED',
      `Cannot change ${display}: it is read-only for this process. Make it writable first if it should change.`,
      { path: display, cause: error, details: { osCode: nodeCode(error) } },
    )
  }
}
