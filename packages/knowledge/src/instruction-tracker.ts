// One session's instruction files as the session goes: the first set (the global file, then
// each folder from the project's root down to the cwd, then each added root), the folders
// below them that tool calls reach (added once, as they are reached), and every file's text as
// last sent, so a file that changes is sent again and one that goes is said to be gone. Each
// note carries a record of what it sent (`InstructionNoteData`), and a loaded session rebuilds
// this state from the notes in its log. Cordis-free; reads the disk only.
import { dirname, resolve } from 'node:path'
import { stat } from 'node:fs/promises'
import {
  instructionPathsIn,
  readInstruction,
  readInstructionSync,
  signatureOf,
} from './instruction-files'
import type { InstructionText } from './instruction-files'
import {
  FILE_LIMIT,
  TOTAL_LIMIT,
  cutToLimit,
  displayLine,
  fitTotal,
  renderNote,
} from './instruction-render'
import type { NoteEntry, NoteKind } from './instruction-render'
import { foldersDown, isIgnoredFolder, isWithin } from './paths'

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

/** What a note records of what it sent, kept in the log (see restore). */
export interface InstructionNoteData {
  folders: string[]
  files: InstructionRecord[]
}

export interface InstructionNote {
  text: string
  display: string
  data: InstructionNoteData
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

interface Known extends InstructionRecord {
  /** The `stat` signature when last read (memory only: a loaded session reads again). */
  signature?: string
  /** The text as sent (memory only). */
  text?: string
}

export class InstructionTracker {
  private readonly folders: string[] = []
  private readonly files = new Map<string, Known>()
  private started = false
  private pending: string[] = []
  private discovering: Promise<void> = Promise.resolve()

  constructor(private readonly scope: InstructionScope) {}

  /** Rebuilds the state from the records of the notes a stored session logged, in order. */
  restore(records: readonly InstructionNoteData[]): void {
    for (const record of records) {
      this.started = true
      for (const folder of record.folders)
        if (!this.folders.includes(folder)) this.folders.push(folder)
      for (const file of record.files) this.files.set(file.path, { ...file })
    }
    if (!this.started) return
    // The loaded folders' other candidates were absent: a file that appears there is new.
    this.markAbsent(dirname(this.scope.global), [this.scope.global])
    for (const folder of this.folders) this.markAbsent(folder, instructionPathsIn(folder))
  }

  /** The folders a tool call reached (files or folders, absolute): those below the loaded ones are added. */
  discover(paths: readonly string[] | Promise<readonly string[]>): void {
    this.discovering = this.discovering
      .then(async () => this.addFolders(await paths))
      .catch(() => {
        // Paths that could not be worked out add no folder; later discoveries still run.
      })
  }

  /** What the model should read now: the first set, new folders' files, changes; none when nothing is new. */
  async notes(): Promise<InstructionNote[]> {
    await this.discovering
    if (!this.started) {
      this.started = true
      const first = await this.firstSet()
      this.folders.push(...first.folders)
      return this.note(first.entries, 'first', first.records, first.folders)
    }
    const entries: NoteEntry[] = []
    const records: InstructionRecord[] = []
    const folders = this.pending.splice(0)
    for (const path of this.knownPaths()) {
      const change = await this.changeOf(path)
      if (change === undefined) continue
      records.push(change.record)
      if (change.entry !== undefined) entries.push(change.entry)
    }
    const added = await this.readFolders(folders, this.inEffectChars())
    return this.note(
      [...entries, ...added.entries],
      'more',
      [...records, ...added.records],
      folders,
    )
  }

  /** Every file in effect, as one note's text (what a summary's opening carries). */
  carried(): string | undefined {
    const entries: NoteEntry[] = []
    for (const file of this.files.values()) {
      if (file.state === 'left-out')
        entries.push({ type: 'left-out', path: file.path, length: file.length ?? 0 })
      if (file.state !== 'sent') continue
      const text =
        file.text ??
        cutToLimit(readInstructionSync(file.path)?.text ?? '', file.shown ?? FILE_LIMIT).text
      entries.push({
        type: 'file',
        path: file.path,
        folder: file.folder,
        text,
        length: file.length ?? text.length,
      })
    }
    return entries.length === 0 ? undefined : renderNote(entries, 'carried', this.scope.global)
  }

  /** The files the session has loaded, for `/instructions`; `undefined` before the first message. */
  loaded(): readonly InstructionRecord[] | undefined {
    return this.started
      ? [...this.files.values()].filter((file) => file.state !== 'absent')
      : undefined
  }

  private note(
    entries: NoteEntry[],
    kind: NoteKind,
    files: InstructionRecord[],
    folders: string[],
  ): InstructionNote[] {
    for (const record of files)
      this.files.set(record.path, { ...this.files.get(record.path), ...record })
    // Nothing the model would read: the state is kept here; a loaded session finds it again.
    if (entries.length === 0) return []
    const data = { folders, files: files.map(stripMemory) }
    return [
      {
        text: renderNote(entries, kind, this.scope.global),
        display: displayLine(entries, this.scope.show),
        data,
      },
    ]
  }

  /** The global file, each folder from the root down to the cwd, then each added root. */
  private async firstSet() {
    const { root, cwd, added } = this.scope
    const folders = [dirname(this.scope.global)]
    for (const folder of [...foldersDown(root, cwd), ...added])
      if (!folders.includes(folder)) folders.push(folder)
    const read = await this.readFolders(folders, 0, true)
    return { ...read, folders: folders.slice(1) }
  }

  /**
   * The files of `folders` (the global folder only for its AGENTS.md, when `first`): each read,
   * repeated content counted once, cut to the file limit, and fitted in what is left of the
   * total after `used` characters.
   */
  private async readFolders(folders: readonly string[], used: number, first = false) {
    const records: (Known & { text?: string })[] = []
    const present: Extract<NoteEntry, { type: 'file' }>[] = []
    const seen = new Map<string, string>(this.hashesInEffect())
    for (const [index, folder] of folders.entries()) {
      const paths = first && index === 0 ? [this.scope.global] : instructionPathsIn(folder)
      for (const path of paths) {
        const file = await readInstruction(path)
        if (file === undefined) {
          this.markAbsent(folder, [path])
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
  private async changeOf(path: string): Promise<{ record: Known; entry?: NoteEntry } | undefined> {
    const known = this.files.get(path)!
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
    const file = await readInstruction(path)
    if (file === undefined || file.hash === known.hash) {
      known.signature = file?.signature
      return undefined
    }
    const same = this.hashesInEffect().get(file.hash)
    if (same !== undefined && same !== path) {
      return { record: { ...recordOf(path, known.folder, file, 'same'), sameAs: same } }
    }
    const cut = cutToLimit(file.text)
    const room =
      TOTAL_LIMIT - this.inEffectChars() + (known.state === 'sent' ? (known.shown ?? 0) : 0)
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

  private async addFolders(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      const folder = await folderOf(resolve(this.scope.cwd, path))
      if (isIgnoredFolder(folder)) continue
      const base = this.deepestLoaded(folder)
      if (base === undefined) continue
      for (const below of foldersDown(base, folder).slice(1)) {
        if (this.folders.includes(below)) continue
        this.folders.push(below)
        this.pending.push(below)
      }
    }
  }

  /** The deepest loaded folder `folder` lies in (the global one excepted). */
  private deepestLoaded(folder: string): string | undefined {
    let best: string | undefined
    for (const loaded of this.folders)
      if (isWithin(loaded, folder) && (best === undefined || loaded.length > best.length))
        best = loaded
    return best
  }

  /** Candidates not known yet are known absent (a file that appears there is new). */
  private markAbsent(folder: string, paths: readonly string[]): void {
    for (const path of paths)
      if (!this.files.has(path)) this.files.set(path, { path, folder, state: 'absent' })
  }

  private knownPaths(): string[] {
    return [...this.files.keys()]
  }

  private hashesInEffect(): Map<string, string> {
    const hashes = new Map<string, string>()
    for (const file of this.files.values())
      if (file.hash !== undefined && file.state !== 'same' && file.state !== 'absent')
        hashes.set(file.hash, file.path)
    return hashes
  }

  private inEffectChars(): number {
    let total = 0
    for (const file of this.files.values()) if (file.state === 'sent') total += file.shown ?? 0
    return total
  }
}

function recordOf(
  path: string,
  folder: string,
  file: InstructionText,
  state: InstructionState,
): Known {
  return { path, folder, state, hash: file.hash, length: file.length, signature: file.signature }
}

function stripMemory(record: Known): InstructionRecord {
  const { signature: _signature, text: _text, ...kept } = record
  return kept
}

/** The folder a path names: itself when it is one, else the folder holding it. */
async function folderOf(path: string): Promise<string> {
  try {
    if ((await stat(path)).isDirectory()) return path
  } catch {
    // Not there (a file about to be written): its folder is still the one it names.
  }
  return dirname(path)
}
