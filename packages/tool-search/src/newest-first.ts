// The newest files of those a search lists, kept as they stream in: each path is stat'ed for
// its modification time when it arrives (while ripgrep still lists the rest) and placed in a
// sorted window of at most `limit`, or dropped when older than the last kept. Newest first;
// equal times by path (UTF-16 order), so the result does not depend on the order ripgrep
// lists in. A file gone or unreadable between the listing and the stat sorts as time 0 (the
// oldest), and the call stands.
import { statSync } from 'node:fs'
import { isAbsolute, sep } from 'node:path'

export interface Found {
  /** The path as ripgrep printed it (relative to the working directory, or absolute). */
  path: string
  /** Modification time in ms; 0 when the file could not be stat'ed. */
  mtime: number
}

/** A missing file is an ordinary answer here, not an exception built and thrown. */
const NO_THROW = { throwIfNoEntry: false } as const

/** Newest first; equal times by path. */
function newer(a: Found, b: Found): number {
  return b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
}

/** The modification time of `path` (relative to `cwd` unless absolute), 0 when not there. */
export function mtimeOf(cwd: string, path: string): number {
  try {
    return statSync(isAbsolute(path) ? path : `${cwd}${sep}${path}`, NO_THROW)?.mtimeMs ?? 0
  } catch {
    return 0
  }
}

export class NewestFirst {
  private readonly kept: Found[] = []

  constructor(
    private readonly cwd: string,
    private readonly limit: number,
  ) {}

  /** Stats `path` and keeps it if it is among the newest `limit` so far. */
  take(path: string): void {
    const mtime = mtimeOf(this.cwd, path)
    const kept = this.kept
    if (kept.length >= this.limit) {
      // Most files of a long listing are older than the last kept: one comparison each.
      const last = kept[kept.length - 1]!
      if (mtime < last.mtime || (mtime === last.mtime && path >= last.path)) return
    }
    this.insert({ path, mtime })
  }

  private insert(found: Found): void {
    const kept = this.kept
    let low = 0
    let high = kept.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (newer(kept[middle]!, found) <= 0) low = middle + 1
      else high = middle
    }
    kept.splice(low, 0, found)
    if (kept.length > this.limit) kept.pop()
  }

  /** The files kept, newest first. */
  sorted(): readonly Found[] {
    return this.kept
  }
}
