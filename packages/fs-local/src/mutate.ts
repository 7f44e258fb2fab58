// The two mutations, each run by the caller inside the per-target lock of this process: the
// file's directory is opened (and checked to be the judged one), the lock between processes is
// taken, then every check (abort, intent, expected version, type, size) happens against the
// file as it is inside that critical section, and the new bytes go through the atomic save path.
// Right before the rename the file's version is checked once more, so a program that takes no
// lock (an editor) loses its change as rarely as the disk allows: the call fails stale instead.
import { constants, type BigIntStats } from 'node:fs'
import { access, lstat } from 'node:fs/promises'
import { basename } from 'node:path'
import {
  FsError,
  isFsError,
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
  pathChangedError,
  planTextEdit,
  staleVersionError,
  throwIfAborted,
  tooLargeError,
  type TextEditPlan,
} from '@deepseek-ai/dsh-fs/provider'
import { writeFileAtomic } from './atomic-write'
import { openParent, type OpenDirectory } from './directory'
import { hasNodeCode, nodeCode, toFsError } from './errors'
import { checkRegular, openRegular, readRegular, versionOf, type RegularFile } from './file-info'
import { takeLock } from './lock'
import type { DirectoryAnchor } from './resolve'

/** Up to this size an update reports the text it replaced. */
export const PREVIOUS_TEXT_MAX = 1024 * 1024

export interface MutationPlace {
  /** The real path to change (symlinks followed). */
  path: string
  /** The path to name in errors. */
  display: string
  /** The call judged where the change lands: `path` is that place, not the path's answer now. */
  judged?: boolean
  /** The directory the call judged the change to land in, when the disk told it. */
  anchor?: DirectoryAnchor
  signal?: AbortSignal
}

/** The file's place held for one change: its open directory, its name there, the lock. */
interface HeldFile {
  directory: OpenDirectory
  name: string
  /** `name` inside the directory, through its handle. */
  at: string
  display: string
  /** The file as it is now: absent, or its stats; a link is refused. */
  current(): Promise<BigIntStats | undefined>
  /** The file opened for reading, never through a link. */
  open(): Promise<RegularFile>
  /** The last check before the rename: the lock is ours, the file still at `version`. */
  recheck(version: string | undefined): Promise<void>
}

/** Runs `work` on the file of `place` with its directory open and its lock held. */
async function withFile<T>(
  place: MutationPlace,
  create: boolean,
  work: (file: HeldFile) => Promise<T>,
): Promise<T> {
  const { path, display, anchor, judged = false } = place
  const directory = await openParent(path, display, anchor, create)
  try {
    const name = basename(path)
    const lock = await takeLock(directory, name, display)
    const at = directory.at(name)
    const current = () => currentStats(at, display, judged)
    try {
      return await work({
        directory,
        name,
        at,
        display,
        current,
        open: () => openNoLink(at, display, judged),
        async recheck(version) {
          await lock.verify()
          const now = await current()
          if ((now && versionOf(now)) !== version) throw staleVersionError(display)
        },
      })
    } finally {
      await lock.release()
    }
  } finally {
    await directory.close()
  }
}

export async function writeTextAt(
  place: MutationPlace,
  content: string,
  intent?: FsWriteIntent,
): Promise<FsWriteOutcome> {
  const { display, signal } = place
  throwIfAborted(signal, display)
  // A file that must exist is not given new parent directories.
  const create = intent?.kind !== 'replaceIfVersion'
  return withFile(place, create, async (file) => {
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
    await writeFileAtomic(file.directory, file.name, encodeText(content, previous?.bom ?? false), {
      ...keepFrom(existing, display),
      // An unconditional write replaces whatever is there; a guarded one only what it checked.
      beforeRename: intent === undefined ? undefined : () => file.recheck(seen),
    })
    const version = await versionAfterWrite(file)
    if (!existing) return { operation: 'create', version, previousText: null }
    return { operation: 'update', version, previousText: previous?.text }
  })
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

/** The regular file at `at`, opened without following a link (a judged file's link: FS_PATH_CHANGED). */
async function openNoLink(at: string, display: string, judged: boolean): Promise<RegularFile> {
  try {
    return await openRegular(at, display, { noFollow: true })
  } catch (error) {
    if (judged && isFsError(error) && error.details.osCode === 'ELOOP') {
      throw pathChangedError(display, error)
    }
    throw error
  }
}

/**
 * The entry at `at` without following a link: absent, or its stats. A link where the judged
 * file was is FS_PATH_CHANGED; without a judged place it is a link the real path could not
 * follow (a loop), as before.
 */
async function currentStats(
  at: string,
  display: string,
  judged: boolean,
): Promise<BigIntStats | undefined> {
  let stats: BigIntStats
  try {
    stats = await lstat(at, { bigint: true })
  } catch (error) {
    if (hasNodeCode(error, 'ENOENT', 'ENOTDIR')) return undefined
    throw toFsError(error, display)
  }
  if (!stats.isSymbolicLink()) return stats
  if (judged) throw pathChangedError(display)
  throw toFsError(
    Object.assign(new Error('a link that cannot be followed'), { code: 'ELOOP' }),
    display,
  )
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

async function versionAfterWrite(file: HeldFile): Promise<string> {
  const stats = await lstat(file.at, { bigint: true }).catch(() => undefined)
  // Only a program that takes no lock can remove the file right after the rename.
  if (!stats) throw notFoundError(file.display)
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
