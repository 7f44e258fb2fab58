// The newest files of those a search lists, kept as they stream in: the paths of each chunk
// are stat'ed for their modification times when it arrives (while ripgrep still lists the
// rest), each placed in a sorted window of at most `limit` or dropped when older than the last
// kept. Newest first; equal times by path (UTF-16 order), so the result does not depend on the
// order ripgrep lists in. A file gone or unreadable between the listing and the stat sorts as
// time 0 (the oldest), and the call stands.
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

  /**
   * Stats each of `paths` and keeps those among the newest `limit` so far. One loop over a
   * chunk's paths rather than a call per path: a fresh process compiles less of it (measured:
   * 7–10 ms less CPU on V8's compiler threads over 2,221 files).
   */
  takeAll(paths: readonly string[]): void {
    const kept = this.kept
    for (const path of paths) {
      const mtime = mtimeOf(this.cwd, path)
      if (kept.length >= this.limit) {
        // Most files of a long listing are older than the last kept: one comparison each.
        const last = kept[kept.length - 1]!
        if (mtime < last.mtime || (mtime === last.mtime && path >= last.path)) continue
      }
      this.insert({ path, mtime })
    }
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
