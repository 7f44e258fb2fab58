// The snapshot provider where git is missing: the file tools' own record. Before a file tool
// (`write`, `edit`) first changes a file in a turn, its bytes and mode are kept (in
// `<dir>/files/<session>/<sha256>`); after each call, the file as the call left it. What a
// command, a delegate's command or an MCP tool changed is not seen: the README and `/undo`'s
// reply say so.
import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { readDiskFile } from './disk'
import type { UndoChange, UndoFileState, UndoRecorder, UndoStore, UndoTurn } from './types'

export interface FilesUndoStoreOptions {
  dir: string
  maxFileBytes: number
}

export class FilesUndoStore implements UndoStore {
  readonly kind = 'files'

  constructor(private readonly options: FilesUndoStoreOptions) {}

  begin(sessionId: string, roots: readonly string[]): UndoRecorder {
    return new FilesRecorder(roots, (file) => this.keep(sessionId, file), this.options.maxFileBytes)
  }

  read(sessionId: string, _root: string, state: UndoFileState): Promise<Buffer> {
    return readFile(join(this.blobsOf(sessionId), state.oid))
  }

  async retain(sessionId: string, turns: readonly UndoTurn[]): Promise<void> {
    const dir = this.blobsOf(sessionId)
    if (turns.length === 0) return void (await rm(dir, { recursive: true, force: true }))
    const kept = new Set(
      turns.flatMap((turn) => turn.changes.flatMap((c) => [c.before?.oid, c.after?.oid])),
    )
    const names = await readdir(dir).catch(() => [])
    for (const name of names) if (!kept.has(name)) await rm(join(dir, name), { force: true })
  }

  close(): void {
    // Nothing is held open between calls.
  }

  private async keep(sessionId: string, bytes: Buffer): Promise<string> {
    const oid = createHash('sha256').update(bytes).digest('hex')
    const dir = this.blobsOf(sessionId)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, oid), bytes)
    return oid
  }

  private blobsOf(sessionId: string): string {
    return join(this.options.dir, 'files', sessionId)
  }
}

interface Watched {
  root: string
  path: string
  before?: UndoFileState
  after?: UndoFileState
  tooLarge?: boolean
}

class FilesRecorder implements UndoRecorder {
  private readonly files = new Map<string, Watched>()

  constructor(
    private readonly roots: readonly string[],
    private readonly keep: (bytes: Buffer) => Promise<string>,
    private readonly maxFileBytes: number,
  ) {}

  async beforeCall(file?: string): Promise<void> {
    if (file === undefined || this.files.has(file)) return
    const root = this.roots.find(
      (r) => file === r || file.startsWith(r.endsWith(sep) ? r : r + sep),
    )
    if (root === undefined) return
    const path = relative(root, file).split(sep).join('/')
    const watched: Watched = { root, path }
    this.files.set(file, watched)
    const state = await this.stateOf(file)
    if (state === 'too-large') watched.tooLarge = true
    else if (state !== undefined) watched.before = state
  }

  async afterCall(): Promise<void> {
    for (const [file, watched] of this.files) {
      const state = await this.stateOf(file)
      if (state === 'too-large') watched.tooLarge = true
      else if (state === undefined) delete watched.after
      else watched.after = state
    }
  }

  async finish(): Promise<Pick<UndoTurn, 'changes' | 'skipped'>> {
    const changes: UndoChange[] = []
    const skipped: string[] = []
    for (const { root, path, before, after, tooLarge } of this.files.values()) {
      if (tooLarge === true) skipped.push(path)
      else if (before?.oid !== after?.oid || before?.mode !== after?.mode)
        changes.push({ root, path, ...(before && { before }), ...(after && { after }) })
    }
    return { changes, skipped }
  }

  private async stateOf(file: string): Promise<UndoFileState | 'too-large' | undefined> {
    const found = await readDiskFile(file).catch(() => undefined)
    if (found === undefined || found === 'other') return undefined
    if (found.bytes.length > this.maxFileBytes) return 'too-large'
    return { mode: found.mode, oid: await this.keep(found.bytes) }
  }
}
