// Bulk newline search for the read scanner: where the k-th newline of a byte range lies, or how
// many newlines the range holds. A tiny WebAssembly routine compares 16 bytes per step (SIMD
// i8x16.eq, bitmask, popcnt) on a copy of the bytes in its own memory; where WebAssembly SIMD is
// unavailable, a Buffer.indexOf loop gives the same answers.
// Not a line splitter: lines and windows are in read-scan.ts, the line index in line-index.ts.
// It exists because one Buffer.indexOf call per line costs more than reading a large file.

const NEWLINE = 0x0a
/** Bytes copied into WebAssembly memory at a time (its whole memory: 16 pages of 64 KiB). */
const PIECE_BYTES = 1 << 20
/** The largest count the routine takes (an i32); any larger k means "count them all". */
const MAX_K = 0x7fffffff

/** find(start, end, k): index of the k-th newline in memory[start, end), else -1 - found. */
type WasmFind = (start: number, end: number, k: number) => number

/** Unsigned LEB128. */
function leb(value: number): number[] {
  const out: number[] = []
  let rest = value
  do {
    const low = rest & 0x7f
    rest >>>= 7
    out.push(rest === 0 ? low : low | 0x80)
  } while (rest !== 0)
  return out
}

function section(id: number, body: number[]): number[] {
  return [id, ...leb(body.length), ...body]
}

function name(text: string): number[] {
  return [...leb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))]
}

/** The module's bytes. Params: 0 start, 1 end, 2 k; locals: 3 found, 4 next (i32), 5 needle. */
function moduleBytes(): Uint8Array {
  const simd = (op: number) => [0xfd, ...leb(op)]
  const get = (local: number) => [0x20, local]
  const set = (local: number) => [0x21, local]
  const body = [
    ...[2, 2, 0x7f, 1, 0x7b], // locals: 2 × i32, 1 × v128
    ...[0x41, NEWLINE, ...simd(15), ...set(5)], // needle = i8x16.splat('\n')
    ...[0x02, 0x40, 0x03, 0x40], // block, loop: 16 bytes per step
    ...[...get(0), 0x41, 16, 0x6a, ...get(1), 0x4b, 0x0d, 1], // start + 16 > end: to bytes
    ...[...get(0), ...simd(0), 0, 0, ...get(5), ...simd(35), ...simd(100), 0x69], // popcnt(eq)
    ...[...get(3), 0x6a, 0x22, 4, ...get(2), 0x4f, 0x0d, 1], // found + that ≥ k: to bytes
    ...[...get(4), ...set(3), ...get(0), 0x41, 16, 0x6a, ...set(0), 0x0c, 0, 0x0b, 0x0b],
    ...[0x02, 0x40, 0x03, 0x40], // block, loop: one byte per step
    ...[...get(0), ...get(1), 0x4f, 0x0d, 1], // start ≥ end: done
    ...[...get(0), 0x2d, 0, 0, 0x41, NEWLINE, 0x46, 0x04, 0x40], // if byte = '\n'
    ...[...get(3), 0x41, 1, 0x6a, 0x22, 3, ...get(2), 0x46, 0x04, 0x40], // if ++found = k
    ...[...get(0), 0x0f, 0x0b, 0x0b], // return start
    ...[...get(0), 0x41, 1, 0x6a, ...set(0), 0x0c, 0, 0x0b, 0x0b],
    ...[0x41, 0x7f, ...get(3), 0x6b, 0x0b], // return -1 - found
  ]
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, [1, 0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, ...leb(PIECE_BYTES >>> 16)]),
    ...section(7, [2, ...name('find'), 0, 0, ...name('memory'), 2, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ])
}

/** The part of the WebAssembly API used here (the project's type libraries leave it out). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { exports: Record<string, unknown> }
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer }
}

interface Routine {
  find: WasmFind
  memory: Uint8Array
}

function loadRoutine(): Routine | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly
  if (wasm === undefined) return undefined
  try {
    const bytes = moduleBytes()
    if (!wasm.validate(bytes)) return undefined
    const { exports } = new wasm.Instance(new wasm.Module(bytes))
    const memory = exports['memory']
    const find = exports['find']
    if (!(memory instanceof wasm.Memory) || typeof find !== 'function') return undefined
    return { find: find as WasmFind, memory: new Uint8Array(memory.buffer) }
  } catch {
    return undefined
  }
}

const routine = loadRoutine()
/** The id of the finder whose bytes are in the routine's memory now. */
let holder: symbol | undefined

/** True when the WebAssembly routine is in use (false: the indexOf fallback). */
export const bulkNewlineSearch = routine !== undefined

/**
 * Finds newlines in a chunk. Each chunk must be a new Buffer object whose bytes do not change
 * while it is searched: the finder keeps the last piece it copied for the next call on it.
 */
export class NewlineFinder {
  private readonly id = Symbol('newline finder')
  private source: Buffer | undefined
  private start = 0
  private end = 0

  constructor(private readonly useRoutine = true) {}

  /** Index of the k-th (k ≥ 1) newline in buf[from..], else -1 - (newlines there). */
  find(buf: Buffer, from: number, k: number): number {
    if (routine === undefined || !this.useRoutine) return findByIndexOf(buf, from, k)
    let found = 0
    let at = from
    while (at < buf.length) {
      if (holder !== this.id || this.source !== buf || at < this.start || at >= this.end) {
        this.start = at
        this.end = Math.min(buf.length, at + PIECE_BYTES)
        routine.memory.set(buf.subarray(this.start, this.end))
        this.source = buf
        holder = this.id
      }
      const want = Math.min(k - found, MAX_K)
      const result = routine.find(at - this.start, this.end - this.start, want)
      if (result >= 0) return this.start + result
      found += -1 - result
      at = this.end
    }
    return -1 - found
  }

  /** Drops the reference to the last chunk. */
  release(): void {
    this.source = undefined
    if (holder === this.id) holder = undefined
  }
}

function findByIndexOf(buf: Buffer, from: number, k: number): number {
  let found = 0
  for (let i = buf.indexOf(NEWLINE, from); i !== -1; i = buf.indexOf(NEWLINE, i + 1)) {
    if (++found === k) return i
  }
  return -1 - found
}
