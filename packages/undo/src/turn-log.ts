// A session's undo log: the turns that changed files, oldest first, in
// `<dir>/turns/<session>.json` (replaced atomically after each change), so `/undo` works after
// the session is loaded in a new process. A new turn drops the undone ones (they can no longer
// be redone: the files moved on), and only the last `keep` turns are kept.
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { UndoTurn } from './types'

interface StoredLog {
  version: 1
  turns: UndoTurn[]
}

export class TurnLog {
  private constructor(
    private readonly file: string,
    readonly turns: UndoTurn[],
  ) {}

  /** The log of `sessionId` under `dir` (empty when there is none or it cannot be read). */
  static async open(dir: string, sessionId: string): Promise<TurnLog> {
    const file = join(dir, 'turns', `${sessionId}.json`)
    const text = await readFile(file, 'utf8').catch(() => undefined)
    let turns: UndoTurn[] = []
    if (text !== undefined) {
      try {
        const parsed = JSON.parse(text) as Partial<StoredLog>
        if (parsed.version === 1 && Array.isArray(parsed.turns)) turns = parsed.turns
      } catch {
        // A log cut short by a crash: its turns cannot be undone, the session goes on.
      }
    }
    return new TurnLog(file, turns)
  }

  /**
   * Puts a turn's record in, replacing its earlier one; a new turn is added after the others
   * (see `add`). Returns the turns it let go of.
   */
  put(turn: UndoTurn, keep: number): UndoTurn[] {
    const at = this.turns.findIndex((t) => t.turnId === turn.turnId)
    if (at === -1) return this.add(turn, keep)
    this.turns[at] = turn
    return []
  }

  /** Takes a turn's record out (its changes came to nothing); the record, when it was there. */
  drop(turnId: string): UndoTurn | undefined {
    const at = this.turns.findIndex((t) => t.turnId === turnId)
    return at === -1 ? undefined : this.turns.splice(at, 1)[0]
  }

  /** Adds a turn; returns the turns it let go of (undone ones, and the oldest past `keep`). */
  add(turn: UndoTurn, keep: number): UndoTurn[] {
    const dropped = this.turns.filter((t) => t.undone)
    const done = this.turns.filter((t) => !t.undone)
    done.push(turn)
    dropped.push(...done.splice(0, Math.max(0, done.length - keep)))
    this.turns.splice(0, this.turns.length, ...done)
    return dropped
  }

  /** The last turn not undone (what `/undo` takes back). */
  lastDone(): UndoTurn | undefined {
    return this.turns.findLast((turn) => !turn.undone)
  }

  /** The earliest undone turn (what `/redo` puts back: undos go backwards, redos forwards). */
  firstUndone(): UndoTurn | undefined {
    return this.turns.find((turn) => turn.undone)
  }

  async save(): Promise<void> {
    const dir = join(this.file, '..')
    await mkdir(dir, { recursive: true })
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    const stored: StoredLog = { version: 1, turns: this.turns }
    await writeFile(temp, JSON.stringify(stored))
    await rename(temp, this.file)
  }

  async remove(): Promise<void> {
    this.turns.splice(0)
    await rm(this.file, { force: true })
  }
}
