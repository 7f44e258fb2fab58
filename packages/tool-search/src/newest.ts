// The newest `limit` files of a listing, by modification time (ties by path), with each file
// stat'ed as it is taken: up to PARALLEL stats at once on libuv's threads, so they go on while
// ripgrep still lists and this thread parses; a queue of at most QUEUED paths waits for them,
// and a path taken when the queue is full is stat'ed at once on this thread (which slows the
// reading of ripgrep's output, and so ripgrep: memory stays bounded). Only a sorted window of
// `limit` is kept; a file gone or unreadable between the listing and its stat sorts last.
import { stat, statSync } from 'node:fs'
import { isAbsolute, sep } from 'node:path'

const PARALLEL = 32
const QUEUED = 4096

export interface Found {
  path: string
  mtime: number
}

/** Newest first; equal times by path. */
export function newer(a: Found, b: Found): number {
  return b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
}

export class NewestFirst {
  private readonly kept: Found[] = []
  private readonly queue: string[] = []
  private inFlight = 0
  private settled: (() => void) | undefined

  /** `cwd`: what a relative path is relative to. */
  constructor(
    private readonly cwd: string,
    private readonly limit: number,
  ) {}

  take(path: string): void {
    if (this.inFlight < PARALLEL) this.statOf(path)
    else if (this.queue.length < QUEUED) this.queue.push(path)
    else this.place(path, mtimeNow(this.where(path)))
  }

  /** The files kept, newest first, once every stat has come back. */
  async sorted(): Promise<readonly Found[]> {
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.settled = resolve))
    return this.kept
  }

  private statOf(path: string): void {
    this.inFlight++
    stat(this.where(path), (error, info) => {
      this.inFlight--
      this.place(path, error === null ? info.mtimeMs : 0)
      const next = this.queue.pop()
      if (next !== undefined) this.statOf(next)
      else if (this.inFlight === 0) this.settled?.()
    })
  }

  private where(path: string): string {
    return isAbsolute(path) ? path : `${this.cwd}${sep}${path}`
  }

  /** Places a file in the sorted window by binary search, or drops it when older than the last. */
  private place(path: string, mtime: number): void {
    const found = { path, mtime }
    const kept = this.kept
    if (kept.length >= this.limit && newer(found, kept[kept.length - 1]!) >= 0) return
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
}

function mtimeNow(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return 0
  }
}
