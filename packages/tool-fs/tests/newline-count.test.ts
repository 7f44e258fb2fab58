import { afterEach, describe, expect, it, vi } from 'vitest'
import { ARENA_BYTES, NewlineFinder, bulkNewlineSearch } from '../src/newline-count'
import { ReadWindowScanner } from '../src/read-scan'
import type { ReadScanOptions } from '../src/read-scan'

const PIECE = 1 << 20

/** Index of the k-th newline in bytes[from..], else -1 - (newlines there), byte by byte. */
function reference(bytes: Uint8Array, from: number, k: number): number {
  let found = 0
  for (let i = from; i < bytes.length; i++) {
    if (bytes[i] === 0x0a && ++found === k) return i
  }
  return -1 - found
}

/** Lines of deterministic pseudo-random lengths (0 to 120 bytes, some CRLF). */
function randomText(bytes: number, seed = 7): Buffer {
  const out = Buffer.alloc(bytes, 0x61)
  let state = seed
  let at = 0
  for (;;) {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    at += state % 121
    if (at >= bytes) break
    if (state % 5 === 0 && at > 0) out[at - 1] = 0x0d
    out[at++] = 0x0a
  }
  return out
}

/** Line starts 1 + m·every (m ≥ 1) of the bytes, from a plain walk. */
function expectedStarts(bytes: Uint8Array, every: number): [number, number][] {
  const starts: [number, number][] = []
  let line = 1
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a && ++line % every === 1 % every) starts.push([line, i + 1])
  }
  return starts
}

function scanStarts(bytes: Uint8Array, chunk: number, options: Partial<ReadScanOptions> = {}) {
  const starts: [number, number][] = []
  const scanner = new ReadWindowScanner({
    offset: 1,
    limit: 1,
    indexEvery: 1024,
    onLineStart: (line, byte) => starts.push([line, byte]),
    ...options,
  })
  for (let at = 0; at < bytes.length; at += chunk) scanner.push(bytes.subarray(at, at + chunk))
  return { starts, window: scanner.finish() }
}

describe('finding the k-th newline', () => {
  it('uses the webassembly routine on this runtime', () => {
    expect(bulkNewlineSearch()).toBe(true)
  })

  for (const [label, finder] of [
    ['the routine', () => new NewlineFinder()],
    ['the fallback', () => new NewlineFinder(false)],
  ] as const) {
    it(`agrees with a byte walk around 16-byte steps with ${label}`, () => {
      const bytes = randomText(300)
      bytes.fill(0x62, 0, 40)
      for (const at of [15, 16, 17, 31, 32]) bytes[at] = 0x0a
      const search = finder()
      for (let from = 0; from <= bytes.length; from++) {
        for (const k of [1, 2, 3, 5, 17, 1000]) {
          expect(search.find(bytes, from, k)).toBe(reference(bytes, from, k))
        }
      }
    })

    it(`finds newlines on both sides of a piece border with ${label}`, () => {
      const bytes = Buffer.alloc(2 * PIECE + 100, 0x61)
      for (const at of [PIECE - 1, PIECE, PIECE + 1, 2 * PIECE - 1, 2 * PIECE + 99]) {
        bytes[at] = 0x0a
      }
      const search = finder()
      for (const from of [0, 5, PIECE - 1, PIECE, PIECE + 2]) {
        for (const k of [1, 2, 3, 4, 5, 6, Infinity]) {
          expect(search.find(bytes, from, k)).toBe(reference(bytes, from, k))
        }
      }
    })
  }

  it('counts blocks of 4080 bytes of nothing but newlines without a lane overflowing', () => {
    const block = 255 * 16
    const bytes = Buffer.alloc(3 * block + 37, 0x0a)
    const search = new NewlineFinder()
    for (const from of [0, 1, 15, 16, block - 1, block, block + 1, 2 * block + 5]) {
      for (const k of [1, 255, 256, block - 1, block, block + 1, 2 * block + 1, Infinity]) {
        expect(search.find(bytes, from, k)).toBe(reference(bytes, from, k))
      }
    }
  })

  it('finds the k-th newline on either side of every block border of a text', () => {
    const block = 255 * 16
    const bytes = randomText(4 * block + 100, 3)
    const search = new NewlineFinder()
    const all = -1 - reference(bytes, 0, Infinity)
    for (let k = 1; k <= all + 1; k++) {
      expect(search.find(bytes, 0, k)).toBe(reference(bytes, 0, k))
    }
    for (const from of [block - 3, block, 2 * block + 7]) {
      expect(search.find(bytes, from, Infinity)).toBe(reference(bytes, from, Infinity))
    }
  })

  it('searches chunks in its arena where they lie, with the answers of a copied chunk', () => {
    const finder = new NewlineFinder()
    const arena = finder.arena()
    if (arena === undefined) throw new Error('no arena without the webassembly routine')
    const text = randomText(ARENA_BYTES, 5)
    for (const [index, view] of arena.entries()) {
      view.set(text)
      const length = index === 0 ? ARENA_BYTES : ARENA_BYTES - 21
      const inArena = Buffer.from(view.buffer, view.byteOffset, length)
      const copy = Buffer.from(text.subarray(0, length))
      for (const from of [0, 7, 4096, 70_000]) {
        for (const k of [1, 3, 1000, 60_000, Infinity]) {
          expect(finder.find(inArena, from, k)).toBe(reference(copy, from, k))
        }
      }
    }
    finder.release()
  })

  it('finds the first nul byte in its arena on both sides of every 4 KiB block border', () => {
    const finder = new NewlineFinder()
    const [view] = finder.arena() ?? []
    if (view === undefined) throw new Error('no arena without the webassembly routine')
    const length = 3 * 4096 + 40
    for (const at of [0, 15, 16, 4095, 4096, 4097, 8191, 2 * 4096 + 17, length - 1, -1]) {
      view.fill(0x61, 0, length)
      if (at >= 0) view[at] = 0
      if (at === 4096) view[4100] = 0
      const chunk = Buffer.from(view.buffer, view.byteOffset, length)
      expect(finder.nulIndex(chunk)).toBe(at)
      expect(finder.nulIndex(chunk.subarray(1))).toBe(at > 0 ? at - 1 : -1)
    }
    finder.release()
  })

  it('counts every newline when k is unbounded', () => {
    const bytes = randomText(3 * PIECE + 11)
    const all = -1 - reference(bytes, 0, Infinity)
    expect(new NewlineFinder().find(bytes, 0, Infinity)).toBe(-1 - all)
    expect(new NewlineFinder().find(bytes, bytes.length, 1)).toBe(-1)
  })

  it('keeps answers right when two finders take turns on the shared memory', () => {
    const one = randomText(PIECE + 500, 1)
    const two = randomText(PIECE + 500, 2)
    const first = new NewlineFinder()
    const second = new NewlineFinder()
    for (const k of [1, 10, 100, 1000]) {
      expect(first.find(one, 3, k)).toBe(reference(one, 3, k))
      expect(second.find(two, 3, k)).toBe(reference(two, 3, k))
    }
  })
})

describe('without webassembly', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.resetModules()
  })

  it('falls back to the indexOf search with the same answers and the same window', async () => {
    vi.stubGlobal('WebAssembly', undefined)
    vi.resetModules()
    const fallback = await import('../src/newline-count')
    const scan = await import('../src/read-scan')
    expect(fallback.bulkNewlineSearch()).toBe(false)
    const bytes = randomText(PIECE + 300, 3)
    const search = new fallback.NewlineFinder()
    for (const k of [1, 2, 17, 1000, Infinity]) {
      expect(search.find(bytes, 5, k)).toBe(reference(bytes, 5, k))
    }
    const options = { offset: 4000, limit: 3 }
    const scanner = new scan.ReadWindowScanner(options)
    scanner.push(bytes)
    const routine = new ReadWindowScanner(options)
    routine.push(bytes)
    const window = scanner.finish()
    expect(window.lines).toHaveLength(3)
    expect(window).toEqual(routine.finish())
  })
})

describe('the scanner counting in bulk', () => {
  it('reports exact index starts whatever the chunk size', () => {
    const bytes = randomText(3 * PIECE + 333)
    const expected = expectedStarts(bytes, 1024)
    const total = -1 - reference(bytes, 0, Infinity) + 1
    for (const chunk of [4 << 20, PIECE, PIECE - 1, 65_537, 4093]) {
      const { starts, window } = scanStarts(bytes, chunk)
      expect(starts).toEqual(expected)
      expect(window.totalLines).toBe(total)
    }
  })

  it('reports index starts that fall exactly on chunk and piece borders', () => {
    // 16-byte lines: line 1 + 64·1024 starts at byte 1 MiB, a chunk and a piece border.
    const bytes = Buffer.alloc(3 * PIECE, 0x61)
    for (let at = 15; at < bytes.length; at += 16) bytes[at] = 0x0a
    const { starts, window } = scanStarts(bytes, PIECE)
    expect(starts).toEqual(expectedStarts(bytes, 1024))
    expect(starts).toContainEqual([65_537, PIECE])
    expect(window.totalLines).toBe(bytes.length / 16)
  })

  it('finds a window near the end of a crlf file without a trailing newline', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1}`)
    const bytes = Buffer.from(lines.join('\r\n'))
    const scanned = scanStarts(bytes, 65_536, { offset: 199_998, limit: 10 })
    expect(scanned.window.lines).toEqual(['line 199998', 'line 199999', 'line 200000'])
    expect(scanned.window.totalLines).toBe(200_000)
    expect(scanned.starts).toEqual(expectedStarts(bytes, 1024))
  })

  it('counts a last line without a newline that spans chunks', () => {
    const bytes = Buffer.from(`${'a\n'.repeat(5000)}${'b'.repeat(70_000)}`)
    for (const chunk of [7, 4096, 65_536]) {
      expect(scanStarts(bytes, chunk).window.totalLines).toBe(5001)
    }
  })

  it('refuses a nul byte before and after the window', () => {
    const text = randomText(PIECE + 50)
    for (const at of [10, PIECE + 40]) {
      const bytes = Buffer.from(text)
      bytes[at] = 0
      expect(() => scanStarts(bytes, 65_536, { offset: 2000, limit: 5 })).toThrow(
        expect.objectContaining({ code: 'FS_NOT_TEXT', details: { reason: 'nul' } }),
      )
    }
  })
})
