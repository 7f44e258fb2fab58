// Bulk newline search for the read scanner: where the k-th newline of a byte range lies, or how
// many newlines the range holds, and where its first NUL byte is. A tiny WebAssembly routine
// compares 16 bytes per step (SIMD) on bytes in its own memory: a provider that reads into the
// finder's two arena buffers (FsStreamBytesOptions.into) puts them there, so a large file is
// never copied; other bytes are copied in, a piece at a time. Where WebAssembly SIMD is
// unavailable, Buffer.indexOf loops give the same answers.
// Not a line splitter: lines and windows are in read-scan.ts, the line index in line-index.ts.
// It exists because one Buffer.indexOf call per line costs more than reading a large file.

const NEWLINE = 0x0a
/** Bytes copied into WebAssembly memory at a time, at its start. */
const PIECE_BYTES = 1 << 20
/** Bytes of each of the two arena buffers a provider may read into, after the piece. */
export const ARENA_BYTES = 4 << 20
/** A routine's memory: the piece, then the two arena buffers (64 KiB pages). */
const MEMORY_PAGES = (PIECE_BYTES + 2 * ARENA_BYTES) >>> 16
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

/** Signed LEB128 (the immediates of i32.const). */
function sleb(value: number): number[] {
  const out: number[] = []
  let rest = value
  for (;;) {
    const low = rest & 0x7f
    rest >>= 7
    const done = (rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0)
    out.push(done ? low : low | 0x80)
    if (done) return out
  }
}

/** Bytes of one counting block: 255 vectors, so no byte lane of the tally can overflow. */
const BLOCK_BYTES = 255 * 16

/**
 * The module's bytes. Params: 0 start, 1 end, 2 k. Locals: 3 found, 4 next, 5 at, 6 stop (i32),
 * 7 needle, 8 tally (v128). First whole blocks are counted (each vector's matches subtracted
 * from a byte-lane tally, summed once per block) until the block that holds the k-th newline;
 * from there 16 bytes per step (bitmask and popcnt), then one byte per step.
 */
function moduleBytes(): Uint8Array {
  const find = findBody()
  const nul = nulBody()
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, [2, 0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f, 0x60, 2, 0x7f, 0x7f, 1, 0x7f]),
    ...section(3, [2, 0, 1]),
    ...section(5, [1, 0, ...leb(MEMORY_PAGES)]),
    ...section(7, [3, ...name('find'), 0, 0, ...name('nul'), 0, 1, ...name('memory'), 2, 0]),
    ...section(10, [2, ...leb(find.length), ...find, ...leb(nul.length), ...nul]),
  ])
}

// The instructions both functions are written in.
const simd = (op: number) => [0xfd, ...leb(op)]
const get = (local: number) => [0x20, local]
const set = (local: number) => [0x21, local]
const tee = (local: number) => [0x22, local]
const i32 = (value: number) => [0x41, ...sleb(value)]
const lane = (index: number) => [...get(8), ...simd(27), index] // i32x4.extract_lane
const ADD = 0x6a

/** find's body: whole blocks first, then 16 bytes per step, then one byte per step. */
function findBody(): number[] {
  const blocks = [
    ...[0x02, 0x40, 0x03, 0x40], // block, loop: one block per step
    ...[...get(1), ...get(0), 0x6b, ...i32(16), 0x49, 0x0d, 1], // end - start < 16: on
    // stop = start + min(BLOCK_BYTES, whole vectors left)
    ...[...get(1), ...get(0), 0x6b, ...i32(-16), 0x71, ...tee(6)],
    ...[...i32(BLOCK_BYTES), ...get(6), ...i32(BLOCK_BYTES), 0x49, 0x1b],
    ...[...get(0), ADD, ...set(6)],
    ...[...i32(0), ...simd(15), ...set(8), ...get(0), ...set(5)], // tally = 0, at = start
    ...[0x03, 0x40], // loop: tally -= (bytes at `at` == '\n'), 16 at a time
    ...[...get(8), ...get(5), ...simd(0), 0, 0, ...get(7), ...simd(35), ...simd(113), ...set(8)],
    ...[...get(5), ...i32(16), ADD, ...tee(5), ...get(6), 0x49, 0x0d, 0, 0x0b],
    // next = found + the tally's sum (byte lanes widened twice, four lanes added)
    ...[...get(8), ...simd(125), ...simd(127), ...set(8)],
    ...[...lane(0), ...lane(1), ADD, ...lane(2), ADD, ...lane(3), ADD, ...get(3), ADD, ...tee(4)],
    ...[...get(2), 0x4f, 0x0d, 1], // next ≥ k: the k-th is in this block
    ...[...get(4), ...set(3), ...get(6), ...set(0), 0x0c, 0, 0x0b, 0x0b],
  ]
  const body = [
    ...[2, 4, 0x7f, 2, 0x7b], // locals: 4 × i32, 2 × v128
    ...[...i32(NEWLINE), ...simd(15), ...set(7)], // needle = i8x16.splat('\n')
    ...blocks,
    ...[0x02, 0x40, 0x03, 0x40], // block, loop: 16 bytes per step
    ...[...get(0), ...i32(16), ADD, ...get(1), 0x4b, 0x0d, 1], // start + 16 > end: to bytes
    ...[...get(0), ...simd(0), 0, 0, ...get(7), ...simd(35), ...simd(100), 0x69], // popcnt(eq)
    ...[...get(3), ADD, ...tee(4), ...get(2), 0x4f, 0x0d, 1], // found + that ≥ k: to bytes
    ...[...get(4), ...set(3), ...get(0), ...i32(16), ADD, ...set(0), 0x0c, 0, 0x0b, 0x0b],
    ...[0x02, 0x40, 0x03, 0x40], // block, loop: one byte per step
    ...[...get(0), ...get(1), 0x4f, 0x0d, 1], // start ≥ end: done
    ...[...get(0), 0x2d, 0, 0, ...i32(NEWLINE), 0x46, 0x04, 0x40], // if byte = '\n'
    ...[...get(3), ...i32(1), ADD, ...tee(3), ...get(2), 0x46, 0x04, 0x40], // if ++found = k
    ...[...get(0), 0x0f, 0x0b, 0x0b], // return start
    ...[...get(0), ...i32(1), ADD, ...set(0), 0x0c, 0, 0x0b, 0x0b],
    ...[...i32(-1), ...get(3), 0x6b, 0x0b], // return -1 - found
  ]
  return body
}

/** nul's body. */
function nulBody(): number[] {
  // nul(start, end): index of the first zero byte in memory[start, end), else -1. Params: 0
  // start, 1 end; locals: 2 zeros, 3 seen (v128), 4 stop, 5 begin (i32). Blocks of 4 KiB are
  // searched whole (each vector's zero lanes or-ed into `seen`); the first block that holds a
  // zero is searched again byte by byte.
  const nul = [
    ...[2, 2, 0x7b, 2, 0x7f], // locals: 2 × v128, 2 × i32
    ...[...i32(0), ...simd(15), ...set(2)],
    ...[0x02, 0x40, 0x03, 0x40], // block, loop: one block per step
    ...[...get(1), ...get(0), 0x6b, ...i32(16), 0x49, 0x0d, 1], // end - start < 16: to bytes
    ...[...get(1), ...get(0), 0x6b, ...i32(-16), 0x71, ...tee(4)],
    ...[...i32(4096), ...get(4), ...i32(4096), 0x49, 0x1b, ...get(0), ADD, ...set(4)],
    ...[...get(0), ...set(5), ...get(2), ...set(3)], // begin = start, seen = 0
    ...[0x03, 0x40], // loop: seen |= (bytes at `start` == 0), 16 at a time
    ...[...get(3), ...get(0), ...simd(0), 0, 0, ...get(2), ...simd(35), ...simd(80), ...set(3)],
    ...[...get(0), ...i32(16), ADD, ...tee(0), ...get(4), 0x49, 0x0d, 0, 0x0b],
    ...[...get(3), ...simd(83), 0x04, 0x40, ...get(5), ...set(0), 0x0c, 2, 0x0b], // a zero: bytes
    ...[0x0c, 0, 0x0b, 0x0b],
    ...[0x02, 0x40, 0x03, 0x40], // block, loop: one byte per step
    ...[...get(0), ...get(1), 0x4f, 0x0d, 1], // start ≥ end: none
    ...[...get(0), 0x2d, 0, 0, 0x45, 0x04, 0x40, ...get(0), 0x0f, 0x0b], // byte = 0: return start
    ...[...get(0), ...i32(1), ADD, ...set(0), 0x0c, 0, 0x0b, 0x0b],
    ...[...i32(-1), 0x0b],
  ]
  return nul
}

/** The part of the WebAssembly API used here (the project's type libraries leave it out). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { exports: Record<string, unknown> }
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer }
}

/** nul(start, end): index of the first zero byte in memory[start, end), else -1. */
type WasmNul = (start: number, end: number) => number

/** One instance of the routine: its functions and its own memory. */
interface Routine {
  find: WasmFind
  nul: WasmNul
  memory: Uint8Array
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly

function compile(): object | undefined {
  if (wasm === undefined) return undefined
  try {
    const bytes = moduleBytes()
    return wasm.validate(bytes) ? new wasm.Module(bytes) : undefined
  } catch {
    return undefined
  }
}

/** The compiled routine, compiled on first use (not when the module loads), once. */
let compiledOnce: { module: object | undefined } | undefined

function compiled(): object | undefined {
  compiledOnce ??= { module: compile() }
  return compiledOnce.module
}

function instantiate(): Routine | undefined {
  const module = compiled()
  if (wasm === undefined || module === undefined) return undefined
  const { exports } = new wasm.Instance(module)
  const { memory, find, nul } = exports
  if (!(memory instanceof wasm.Memory) || typeof find !== 'function' || typeof nul !== 'function') {
    return undefined
  }
  return { find: find as WasmFind, nul: nul as WasmNul, memory: new Uint8Array(memory.buffer) }
}

/** Instances no finder holds, kept for the next (scans mostly run one at a time). */
const idle: Routine[] = []
const IDLE_KEPT = 2

/** True when the WebAssembly routine is in use (false: the indexOf fallback). */
export function bulkNewlineSearch(): boolean {
  return compiled() !== undefined
}

/**
 * Finds newlines and NUL bytes in chunks. A chunk in the finder's arena (see `arena`) is
 * searched where it lies; any other is copied in a piece at a time, so such a chunk must be a
 * new Buffer object whose bytes do not change while it is searched (the finder keeps the last
 * piece it copied for the next call on it). Call `release()` when the scan is over.
 */
export class NewlineFinder {
  private routine: Routine | undefined
  private source: Buffer | undefined
  private start = 0
  private end = 0

  constructor(private readonly useRoutine = true) {}

  /**
   * Two buffers of ARENA_BYTES in the routine's memory, for a provider to read chunks into
   * (FsStreamBytesOptions.into); `undefined` without the routine.
   */
  arena(): [Uint8Array, Uint8Array] | undefined {
    const routine = this.take()
    if (routine === undefined) return undefined
    const { buffer } = routine.memory
    return [
      new Uint8Array(buffer, PIECE_BYTES, ARENA_BYTES),
      new Uint8Array(buffer, PIECE_BYTES + ARENA_BYTES, ARENA_BYTES),
    ]
  }

  /** Index of the k-th (k ≥ 1) newline in buf[from..], else -1 - (newlines there). */
  find(buf: Buffer, from: number, k: number): number {
    const routine = this.take()
    if (routine === undefined) return findByIndexOf(buf, from, k)
    if (buf.buffer === routine.memory.buffer) {
      const base = buf.byteOffset
      const result = routine.find(base + from, base + buf.length, Math.min(k, MAX_K))
      return result >= 0 ? result - base : result
    }
    let found = 0
    let at = from
    while (at < buf.length) {
      if (this.source !== buf || at < this.start || at >= this.end) {
        this.start = at
        this.end = Math.min(buf.length, at + PIECE_BYTES)
        routine.memory.set(buf.subarray(this.start, this.end))
        this.source = buf
      }
      const want = Math.min(k - found, MAX_K)
      const result = routine.find(at - this.start, this.end - this.start, want)
      if (result >= 0) return this.start + result
      found += -1 - result
      at = this.end
    }
    return -1 - found
  }

  /** Index of the first NUL byte in `buf`, else -1. */
  nulIndex(buf: Buffer): number {
    const routine = this.take()
    if (routine === undefined || buf.buffer !== routine.memory.buffer) return buf.indexOf(0)
    const base = buf.byteOffset
    const result = routine.nul(base, base + buf.length)
    return result >= 0 ? result - base : -1
  }

  /** Ends the scan: the routine goes back for another finder, the last chunk is let go. */
  release(): void {
    this.source = undefined
    if (this.routine !== undefined && idle.length < IDLE_KEPT) idle.push(this.routine)
    this.routine = undefined
  }

  private take(): Routine | undefined {
    if (!this.useRoutine) return undefined
    this.routine ??= idle.pop() ?? instantiate()
    return this.routine
  }
}

function findByIndexOf(buf: Buffer, from: number, k: number): number {
  let found = 0
  for (let i = buf.indexOf(NEWLINE, from); i !== -1; i = buf.indexOf(NEWLINE, i + 1)) {
    if (++found === k) return i
  }
  return -1 - found
}
