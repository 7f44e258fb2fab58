// The two mutations, each run by the caller inside the per-target lock: every check (abort,
// intent, expected version, type, size) happens here, against the file as it is inside the
// critical section, then the new bytes go through the atomic save path.
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
  notFoundError,
  notObservedError,
  planTextEdit,
  staleVersionError,
  throwIfAborted,
  tooLargeError,
  type TextEditPlan,
} from '@deepseek-ai/dsh-fs/provider'
import { writeFileAtomic } from './atomic-write'
import { hasNodeCode, nodeCode, toFsError } from './errors'
import { checkRegular, openRegular, readRegular, statPath, versionOf } from './file-info'

/** Up to this size an update reports the text it replaced. */
export const PREVIOUS_TEXT_MAX = 1024 * 1024

export interface MutationPlace {
  /** The real path to change (symlinks followed). */
  path: string
  /** The path to name in errors. */
  display: string
  signal?: AbortSignal
}

export async function writeTextAt(
  place: MutationPlace,
  content: string,
  intent?: FsWriteIntent,
): Promise<FsWriteOutcome> {
  const { path, display, signal } = place
  throwIfAborted(signal, display)
  const existing = await statPath(path, display)
  if (existing) checkRegular(existing, display)
  if (intent?.kind === 'createIfAbsent' && existing) throw notObservedError(display)
  if (intent?.kind === 'replaceIfVersion') {
    if (!existing || versionOf(existing) !== intent.version) throw staleVersionError(display)
  }
  if (existing) await checkWritable(path, display)
  const previous = existing ? await readPrevious(path, display, existing) : undefined
  throwIfAborted(signal, display)
  await writeFileAtomic(
    path,
    encodeText(content, previous?.bom ?? false),
    keepFrom(existing, display),
  )
  const version = await versionAfterWrite(path, display)
  if (!existing) return { operation: 'create', version, previousText: null }
  return { operation: 'update', version, previousText: previous?.text }
}

export async function editTextAt(
  place: MutationPlace,
  request: FsEditRequest,
  expected: FsEditExpectation | undefined,
  maxEditBytes: number,
): Promise<FsEditOutcome> {
  const { path, display, signal } = place
  throwIfAborted(signal, display)
  checkEditRequest(request, display)
  const file = await openRegular(path, display)
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
  await checkWritable(path, display)
  const edit = planEdit(bytes, request, display)
  throwIfAborted(signal, display)
  await writeFileAtomic(path, edit.pieces, keepFrom(file.stats, display))
  return {
    replacements: edit.replacements,
    replaceAll: request.replaceAll === true,
    version: await versionAfterWrite(path, display),
    line: edit.line,
    excerpt: edit.excerpt,
  }
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
  path: string,
  display: string,
  stats: BigIntStats,
): Promise<{ bom: boolean; text?: string }> {
  if (stats.size > BigInt(PREVIOUS_TEXT_MAX)) {
    const file = await openRegular(path, display)
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
  const { bytes } = await readRegular(path, display)
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

async function versionAfterWrite(path: string, display: string): Promise<string> {
  const stats = await statPath(path, display)
  // Another process removed the file right after the rename.
  if (!stats) throw notFoundError(display)
  return versionOf(stats)
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
