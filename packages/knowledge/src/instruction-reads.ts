// Reading a session's instruction files against what was sent: a folder's files (each read,
// repeated content counted once, cut to the file limit, fitted in what is left of the total)
// and one known file's change since it was last looked at (changed, new, gone, or the same
// text as another). The state is the tracker's (./instruction-tracker): each known path's
// record. Cordis-free; reads the disk only.
import { stat } from 'node:fs/promises'
import { instructionPathsIn, readInstruction, signatureOf } from './instruction-files'
import type { InstructionText } from './instruction-files'
import { TOTAL_LIMIT, cutToLimit, fitTotal } from './instruction-render'
import type { NoteEntry } from './instruction-render'

/** What a file came to when it was last looked at. */
export type InstructionState = 'sent' | 'left-out' | 'same' | 'absent'

export interface InstructionRecord {
  path: string
  folder: string
  state: InstructionState
  /** The content's hash (absent: no file). */
  hash?: string
  /** Its length in characters, and the characters sent (less when it was cut). */
  length?: number
  shown?: number
  /** For `same`: the file whose content it repeats. */
  sameAs?: string
}

export interface InstructionScope {
  /** The project's root (the folder holding `.git`, else the cwd). */
  root: string
  cwd: string
  /** The session's added roots (beyond the cwd). */
  added: readonly string[]
  /** The person's global file (`…/dsh/AGENTS.md`). */
  global: string
  /** How a path reads for a person (relative to the cwd, `~/…`). */
  show(path: string): string
}

export interface KnownInstruction extends InstructionRecord {
  /** The `stat` signature when last read (memory only: a loaded session reads again). */
  signature?: string
  /** The text as sent (memory only). */
  text?: string
}

/**
 * The files of `folders` (the global folder only for its AGENTS.md, when `first`): each read,
 * repeated content counted once, cut to the file limit, and fitted in what is left of the
 * total after `used` characters.
 */
export async function readFolders(
  files: Map<string, KnownInstruction>,
  scope: InstructionScope,
  folders: readonly string[],
  used: number,
  first = false,
) {
  const records: (KnownInstruction & { text?: string })[] = []
  const present: Extract<NoteEntry, { type: 'file' | 'linked-out' }>[] = []
  const seen = new Map<string, string>(hashesInEffect(files))
  for (const [index, folder] of folders.entries()) {
    const paths = first && index === 0 ? [scope.global] : instructionPathsIn(folder)
    for (const path of paths) {
      const file = await readInstruction(path, withinOf(scope, path))
      if (file === undefined || 'outside' in file) {
        markAbsent(files, folder, [path])
        if (file !== undefined) present.push({ type: 'linked-out', path, target: file.outside })
        continue
      }
      const same = seen.get(file.hash)
      if (same !== undefined) {
        records.push({ ...recordOf(path, folder, file, 'same'), sameAs: same })
        continue
      }
      seen.set(file.hash, path)
      const cut = cutToLimit(file.text)
      records.push({
        ...recordOf(path, folder, file, 'sent'),
        shown: cut.text.length,
        text: cut.text,
      })
      present.push({ type: 'file', path, folder, text: cut.text, length: file.length })
    }
  }
  const entries = fitTotal(present, TOTAL_LIMIT - used)
  for (const entry of entries)
    if (entry.type === 'left-out') {
      const record = records.find((r) => r.path === entry.path)!
      record.state = 'left-out'
      delete record.text
    }
  return { entries, records }
}

/** A known file's change since it was last looked at; `undefined` when there is none. */
export async function changeOf(
  files: Map<string, KnownInstruction>,
  scope: InstructionScope,
  path: string,
): Promise<{ record: KnownInstruction; entry?: NoteEntry } | undefined> {
  const known = files.get(path)!
  let signature: string | undefined
  try {
    signature = signatureOf(await stat(path))
  } catch {
    signature = undefined // missing: gone, if it was there
  }
  if (signature === undefined) {
    if (known.state === 'absent') return undefined
    return {
      record: { path, folder: known.folder, state: 'absent' },
      entry: { type: 'gone', path },
    }
  }
  if (signature === known.signature) return undefined
  const file = await readInstruction(path, withinOf(scope, path))
  if (file !== undefined && 'outside' in file) {
    // Now a link out of the roots: not read; said once, when it was in effect before.
    if (known.state === 'absent') return undefined
    const record = { path, folder: known.folder, state: 'absent' as const }
    return { record, entry: { type: 'linked-out', path, target: file.outside } }
  }
  if (file === undefined || file.hash === known.hash) {
    known.signature = file?.signature
    return undefined
  }
  const same = hashesInEffect(files).get(file.hash)
  if (same !== undefined && same !== path) {
    return { record: { ...recordOf(path, known.folder, file, 'same'), sameAs: same } }
  }
  const cut = cutToLimit(file.text)
  const room =
    TOTAL_LIMIT - inEffectChars(files) + (known.state === 'sent' ? (known.shown ?? 0) : 0)
  if (cut.text.length > room) {
    const record = recordOf(path, known.folder, file, 'left-out')
    return { record, entry: { type: 'left-out', path, length: file.length } }
  }
  const record = {
    ...recordOf(path, known.folder, file, 'sent'),
    shown: cut.text.length,
    text: cut.text,
  }
  const change = known.state === 'absent' ? ('new' as const) : ('changed' as const)
  return {
    record,
    entry: {
      type: 'file',
      path,
      folder: known.folder,
      text: cut.text,
      length: file.length,
      change,
    },
  }
}

/**
 * Where an instruction file's real path must lie: the session's folders (the project's root,
 * the cwd, the added roots), as the `read` tool reads unasked; the person's own global file
 * may point anywhere (its links are the person's).
 */
export function withinOf(scope: InstructionScope, path: string): readonly string[] | undefined {
  return path === scope.global ? undefined : [scope.root, scope.cwd, ...scope.added]
}

/** Candidates not known yet are known absent (a file that appears there is new). */
export function markAbsent(
  files: Map<string, KnownInstruction>,
  folder: string,
  paths: readonly string[],
): void {
  for (const path of paths) if (!files.has(path)) files.set(path, { path, folder, state: 'absent' })
}

export function hashesInEffect(files: Map<string, KnownInstruction>): Map<string, string> {
  const hashes = new Map<string, string>()
  for (const file of files.values())
    if (file.hash !== undefined && file.state !== 'same' && file.state !== 'absent')
      hashes.set(file.hash, file.path)
  return hashes
}

export function inEffectChars(files: Map<string, KnownInstruction>): number {
  let total = 0
  for (const file of files.values()) if (file.state === 'sent') total += file.shown ?? 0
  return total
}

export function recordOf(
  path: string,
  folder: string,
  file: InstructionText,
  state: InstructionState,
): KnownInstruction {
  return { path, folder, state, hash: file.hash, length: file.length, signature: file.signature }
}
