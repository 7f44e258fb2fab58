// A sparse line-offset index per file version, so a read that pages on (`offset=B+1`) through
// an unchanged file seeks close to its window instead of scanning again from byte 0, and its
// footer takes the total line count from the first full scan.
// Not a cache of content: only byte offsets and a count. Bounded in entries per file and in
// files (least recently used dropped first); an entry for another version is discarded.

/** A known line start: line `line` (1-based) begins at byte `byte`. */
export interface LineStart {
  line: number
  byte: number
}

export interface LineIndexOptions {
  /** Lines between recorded starts at first (doubles when the index grows past maxEntries). */
  every?: number
  /** Most starts kept per file. */
  maxEntries?: number
}

/** The starts of lines 1, 1 + every, 1 + 2·every, … of one file version, as far as scanned. */
export class LineIndex {
  /** Lines in the file, once a scan reached its end. */
  totalLines: number | undefined
  private stride: number
  private readonly maxEntries: number
  /** starts[m] is the byte where line 1 + m·stride begins; starts[0] = 0 (the file's start). */
  private readonly starts: number[] = [0]

  constructor(
    readonly version: string,
    options: LineIndexOptions = {},
  ) {
    this.stride = Math.max(1, options.every ?? 1024)
    this.maxEntries = Math.max(2, options.maxEntries ?? 8192)
  }

  /** The stride a scanner should report starts at (any multiple works too). */
  get every(): number {
    return this.stride
  }

  get size(): number {
    return this.starts.length
  }

  /** Records a line start seen by a scan; only the next start in sequence is kept. */
  record(line: number, byte: number): void {
    if (line !== 1 + this.starts.length * this.stride) return
    this.starts.push(byte)
    if (this.starts.length > this.maxEntries) this.thin()
  }

  /** The closest known start at or before `line` (line 1 at byte 0 when nothing closer). */
  nearest(line: number): LineStart {
    const m = Math.min(Math.floor((Math.max(1, line) - 1) / this.stride), this.starts.length - 1)
    return { line: 1 + m * this.stride, byte: this.starts[m]! }
  }

  /** Keeps every other start and doubles the stride, halving the index. */
  private thin(): void {
    let kept = 0
    for (let m = 0; m < this.starts.length; m += 2) this.starts[kept++] = this.starts[m]!
    this.starts.length = kept
    this.stride *= 2
  }
}

export interface LineIndexCacheOptions extends LineIndexOptions {
  /** Most files indexed at once (default 16). */
  maxFiles?: number
}

/** The line indexes of recently read files, keyed by `targetKey`, one version each. */
export class LineIndexCache {
  private readonly files = new Map<string, LineIndex>()
  private readonly maxFiles: number

  constructor(private readonly options: LineIndexCacheOptions = {}) {
    this.maxFiles = Math.max(1, options.maxFiles ?? 16)
  }

  /** The index of `targetKey` at `version`; a fresh one when the version changed. */
  get(targetKey: string, version: string): LineIndex {
    let index = this.files.get(targetKey)
    this.files.delete(targetKey)
    if (index === undefined || index.version !== version)
      index = new LineIndex(version, this.options)
    this.files.set(targetKey, index)
    while (this.files.size > this.maxFiles) {
      const oldest = this.files.keys().next().value
      if (oldest === undefined) break
      this.files.delete(oldest)
    }
    return index
  }

  /** The index kept for `targetKey`, without touching its recency. */
  peek(targetKey: string): LineIndex | undefined {
    return this.files.get(targetKey)
  }

  get size(): number {
    return this.files.size
  }

  clear(): void {
    this.files.clear()
  }
}
