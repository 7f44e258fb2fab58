// One session's instruction files as the session goes: the first set (the global file, then
// each folder from the project's root down to the cwd, then each added root), the folders
// below them that tool calls reach (added once, as they are reached), and every file's text as
// last sent, so a file that changes is sent again and one that goes is said to be gone. Each
// note carries a record of what it sent (`InstructionNoteData`), and a loaded session rebuilds
// this state from the notes in its log. Cordis-free; reads the disk only.
import { dirname, resolve } from 'node:path'
import { stat } from 'node:fs/promises'
import { instructionPathsIn, readInstructionSync } from './instruction-files'
import { FILE_LIMIT, cutToLimit, displayLine, renderNote } from './instruction-render'
import type { NoteEntry, NoteKind } from './instruction-render'
import { changeOf, inEffectChars, markAbsent, readFolders, withinOf } from './instruction-reads'
import type { InstructionRecord, InstructionScope, KnownInstruction } from './instruction-reads'
import { foldersDown, isIgnoredFolder, isWithin } from './paths'

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

export class InstructionTracker {
  private readonly folders: string[] = []
  private readonly files = new Map<string, KnownInstruction>()
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
    markAbsent(this.files, dirname(this.scope.global), [this.scope.global])
    for (const folder of this.folders) markAbsent(this.files, folder, instructionPathsIn(folder))
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
      const change = await changeOf(this.files, this.scope, path)
      if (change === undefined) continue
      records.push(change.record)
      if (change.entry !== undefined) entries.push(change.entry)
    }
    const added = await readFolders(this.files, this.scope, folders, inEffectChars(this.files))
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
      const text = file.text ?? this.readAgain(file)
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

  /** A sent file's text when a loaded session did not keep it: read again, as first read. */
  private readAgain(file: KnownInstruction): string {
    const read = readInstructionSync(file.path, withinOf(this.scope, file.path))
    const text = read === undefined || 'outside' in read ? '' : read.text
    return cutToLimit(text, file.shown ?? FILE_LIMIT).text
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
    const read = await readFolders(this.files, this.scope, folders, 0, true)
    return { ...read, folders: folders.slice(1) }
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

  private knownPaths(): string[] {
    return [...this.files.keys()]
  }
}

function stripMemory(record: KnownInstruction): InstructionRecord {
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
