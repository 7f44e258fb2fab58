// SpillStore: where the whole output of a cut command result is kept, out of every command's
// reach. The agent makes one private folder per process (mkdtemp: a random name, mode 0700)
// inside the base folder the host gives (which the sandbox keeps read-only), holds it open,
// and creates each file through that handle (`/proc/self/fd/<n>/<name>`, openat's effect:
// the folder it made, even if its path were swapped) with O_CREAT | O_EXCL | O_NOFOLLOW, so
// nothing planted (a symlink, a file) is ever written through. Bounded: a call's file stops at
// `callBytes`, a session's files together at `sessionBytes`; a session's files are deleted
// when its agent is released (`lifetime`), and the whole folder when the store is disposed
// or the process exits.
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'

export interface SpillLimits {
  /** The most bytes one call's file keeps. */
  callBytes: number
  /** The most bytes a session's files keep together. */
  sessionBytes: number
}

/** The limits the app runs with: 64 MiB a call, 512 MiB a session. */
export const SPILL_LIMITS: SpillLimits = { callBytes: 64 * 2 ** 20, sessionBytes: 512 * 2 ** 20 }

/** One call's spilled output, written up to its limits. */
export interface SpillFile {
  readonly path: string
  /** Appends what fits; past a limit the rest is dropped. */
  write(text: string): void
  /** Bytes kept, and whether some were dropped. */
  readonly kept: number
  readonly cut: boolean
  close(): void
}

interface SessionSpills {
  names: Set<string>
  bytes: number
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

export class SpillStore {
  private folder: { path: string; fd: number; via: string } | undefined
  private readonly sessions = new Map<string, SessionSpills>()
  private readonly onExit = () => this.dispose()

  constructor(
    private readonly base: string,
    readonly limits: SpillLimits = SPILL_LIMITS,
  ) {}

  /**
   * A new file for `name` of `session`, or `undefined` when the session's limit is spent.
   * `lifetime`: the session's files are deleted when it fires.
   */
  open(session: string, name: string, lifetime?: AbortSignal): SpillFile | undefined {
    const spills = this.sessionOf(session, lifetime)
    if (spills.bytes >= this.limits.sessionBytes) return undefined
    const folder = this.folderOf()
    const { fd, file } = createUnique(folder.via, `${safeName(session)}-${safeName(name)}`)
    spills.names.add(file)
    const limits = this.limits
    let kept = 0
    let cut = false
    return {
      path: join(folder.path, file),
      get kept() {
        return kept
      },
      get cut() {
        return cut
      },
      write(text) {
        const bytes = Buffer.from(text, 'utf8')
        const room = Math.min(limits.callBytes - kept, limits.sessionBytes - spills.bytes)
        const length = Math.max(0, Math.min(bytes.length, room))
        if (length < bytes.length) cut = true
        if (length === 0) return
        writeSync(fd, bytes, 0, length)
        kept += length
        spills.bytes += length
      },
      close: () => closeSync(fd),
    }
  }

  /** Deletes `session`'s files. */
  dropSession(session: string): void {
    const spills = this.sessions.get(session)
    this.sessions.delete(session)
    if (spills === undefined || this.folder === undefined) return
    for (const name of spills.names) {
      try {
        unlinkSync(join(this.folder.via, name))
      } catch {
        // already gone
      }
    }
  }

  /** Deletes the folder and everything in it. */
  dispose(): void {
    process.off('exit', this.onExit)
    const folder = this.folder
    this.folder = undefined
    this.sessions.clear()
    if (folder === undefined) return
    closeSync(folder.fd)
    rmSync(folder.path, { recursive: true, force: true })
  }

  /**
   * Makes the base folder, before any command runs: a sandbox keeps it read-only only if it
   * exists when the command starts.
   */
  prepare(): void {
    mkdirSync(this.base, { recursive: true, mode: 0o700 })
  }

  /** The private folder, made on first use. */
  private folderOf(): { path: string; fd: number; via: string } {
    if (this.folder !== undefined) return this.folder
    this.prepare()
    const path = mkdtempSync(join(this.base, `${process.pid}-`))
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
    // Through the held handle where the OS names one (Linux); elsewhere by the path just made.
    const via = existsSync(`/proc/self/fd/${fd}`) ? `/proc/self/fd/${fd}` : path
    this.folder = { path, fd, via }
    process.on('exit', this.onExit)
    return this.folder
  }

  private sessionOf(session: string, lifetime: AbortSignal | undefined): SessionSpills {
    let spills = this.sessions.get(session)
    if (spills !== undefined) return spills
    spills = { names: new Set(), bytes: 0 }
    this.sessions.set(session, spills)
    lifetime?.addEventListener('abort', () => this.dropSession(session), { once: true })
    return spills
  }
}

/** A new file in `store` for call `exec` (`name`: the call's), under its session. */
export function spillOf(store: SpillStore, exec: ToolExecution, name: string) {
  return store.open(exec.session.header.id, name, exec.agent?.lifetime)
}

/** Creates `<stem>.log` in `folder`, or `<stem>-2.log`, … when a name is taken. */
function createUnique(folder: string, stem: string): { fd: number; file: string } {
  for (let n = 1; ; n++) {
    const file = n === 1 ? `${stem}.log` : `${stem}-${n}.log`
    try {
      return { fd: openSync(join(folder, file), CREATE, 0o600), file }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error
    }
  }
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || '_'
}
