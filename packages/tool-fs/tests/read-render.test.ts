import { describe, expect, it } from 'vitest'
import {
  LINE_TRUNCATED_SUFFIX,
  READ_MAX_OUTPUT_BYTES,
  countTextLines,
  cutText,
  formatOffsetPastEnd,
  formatReadFooter,
  isOffsetPastEnd,
  renderReadOutput,
  textWindow,
} from '../src/read-render'
import type { ReadWindow } from '../src/read-render'
import { ReadWindowScanner } from '../src/read-scan'
import type { ReadScanOptions } from '../src/read-scan'

const encoder = new TextEncoder()

/** Scans `input` split into chunks of `chunkSize` bytes (the whole input at once by default). */
function scan(input: string | Uint8Array, options: Partial<ReadScanOptions> = {}, chunkSize = 0) {
  const bytes = typeof input === 'string' ? encoder.encode(input) : input
  const scanner = new ReadWindowScanner({ offset: 1, limit: 2000, ...options })
  const size = chunkSize > 0 ? chunkSize : Math.max(1, bytes.length)
  for (let at = 0; at < bytes.length; at += size) {
    if (!scanner.push(bytes.subarray(at, at + size))) break
  }
  return scanner.finish()
}

function render(input: string, options: Partial<ReadScanOptions> = {}, chunkSize = 0) {
  return renderReadOutput('/w/a.txt', scan(input, options, chunkSize))
}

describe('rendering the window', () => {
  it('numbers lines and ends with the end-of-file footer', () => {
    expect(render('first line\nsecond line\n')).toBe(
      '<path>/w/a.txt</path>\n<type>file</type>\n<content>\n' +
        '1: first line\n2: second line\n\n(End of file - total 2 lines)\n</content>',
    )
  })

  it('shows an empty file as zero lines with only the footer', () => {
    expect(render('')).toBe(
      '<path>/w/a.txt</path>\n<type>file</type>\n<content>\n(End of file - total 0 lines)\n</content>',
    )
  })

  it('says 1 line, not 1 lines', () => {
    expect(render('only')).toContain('1: only\n\n(End of file - total 1 line)\n')
  })

  it('adds no line for a trailing newline but counts a last line without one', () => {
    expect(scan('a\nb\n').totalLines).toBe(2)
    expect(scan('a\nb').totalLines).toBe(2)
    expect(scan('\n').lines).toEqual([''])
    expect(scan('a\n\n').lines).toEqual(['a', ''])
  })

  it('strips the carriage return of crlf lines and keeps a lone one', () => {
    expect(scan('a\r\nb\r\nc\r').lines).toEqual(['a', 'b', 'c\r'])
    expect(scan('x\r\ny\r\n', {}, 2).lines).toEqual(['x', 'y'])
  })

  it('strips a byte-order mark at byte 0 only', () => {
    const bom = [0xef, 0xbb, 0xbf]
    const file = Uint8Array.from([...bom, 0x61, 0x0a, ...bom, 0x62])
    const window = scan(file, {}, 1)
    expect(window.lines).toEqual(['a', '\ufeffb'])
    expect(scan(Uint8Array.from(bom)).totalLines).toBe(0)
    expect(scan('ab', {}, 1).lines).toEqual(['ab'])
  })

  it('shows a middle window with the showing footer', () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n')
    const window = scan(text, { offset: 11, limit: 5 })
    expect(window.lines).toEqual(['line 11', 'line 12', 'line 13', 'line 14', 'line 15'])
    expect(renderReadOutput('/w/a.txt', window)).toContain('11: line 11\n')
    expect(formatReadFooter(window)).toBe('(Showing lines 11-15 of 30. Use offset=16 to continue.)')
  })

  it('ends with the end-of-file footer when the window reaches the last line', () => {
    const window = scan('a\nb\nc\n', { offset: 2, limit: 2 })
    expect(formatReadFooter(window)).toBe('(End of file - total 3 lines)')
  })

  it('says the file goes on, without a total, for lines read alone', () => {
    const window = { startLine: 4, lines: ['d', 'e'], capped: false, reachedEnd: false }
    expect(formatReadFooter(window)).toBe('(Showing lines 4-5. Use offset=6 to continue.)')
    expect(formatReadFooter({ ...window, reachedEnd: true, totalLines: 5 })).toBe(
      '(End of file - total 5 lines)',
    )
  })

  it('caps the limit at 2000 lines', () => {
    const text = 'x\n'.repeat(2500)
    const window = scan(text, { limit: 5000 })
    expect(window.lines).toHaveLength(2000)
    expect(formatReadFooter(window)).toBe(
      '(Showing lines 1-2000 of 2500. Use offset=2001 to continue.)',
    )
  })
})

describe('offsets past the end', () => {
  it('reports an offset past the last line with the line count', () => {
    const window = scan('a\nb\n', { offset: 3 })
    expect(isOffsetPastEnd(window)).toBe(true)
    expect(window.totalLines).toBe(2)
    expect(formatOffsetPastEnd('/w/a.txt', 3, 2)).toBe(
      'Offset 3 is past the end of /w/a.txt, which has 2 lines. Use an offset from 1 to 2.',
    )
  })

  it('accepts offset 1 of an empty file and refuses offset 2', () => {
    expect(isOffsetPastEnd(scan('', { offset: 1 }))).toBe(false)
    expect(isOffsetPastEnd(scan('', { offset: 2 }))).toBe(true)
    expect(formatOffsetPastEnd('/w/e', 2, 0)).toBe(
      'Offset 2 is past the end of /w/e, which has 0 lines.',
    )
  })

  it('accepts the last line as an offset', () => {
    const window = scan('a\nb', { offset: 2 })
    expect(isOffsetPastEnd(window)).toBe(false)
    expect(window.lines).toEqual(['b'])
  })
})

describe('long lines', () => {
  it('cuts a 5,000-character line arriving in small chunks to 2000 characters', () => {
    const long = 'abcdefghij'.repeat(500)
    const window = scan(`${long}\nnext\n`, {}, 7)
    expect(window.lines[0]).toBe(long.slice(0, 2000) + LINE_TRUNCATED_SUFFIX)
    expect(window.lines[1]).toBe('next')
    expect(window.totalLines).toBe(2)
  })

  it('keeps a line of exactly 2000 characters whole', () => {
    const exact = 'y'.repeat(2000)
    expect(scan(exact).lines).toEqual([exact])
  })

  it('cuts a long line of multi-byte characters split across chunks without a broken character', () => {
    const long = 'é€😀'.repeat(1500)
    const [line] = scan(long, {}, 5).lines
    expect(line!.endsWith(LINE_TRUNCATED_SUFFIX)).toBe(true)
    const shown = line!.slice(0, -LINE_TRUNCATED_SUFFIX.length)
    expect(long.startsWith(shown)).toBe(true)
    expect(shown.length).toBeGreaterThanOrEqual(1999)
    expect(shown).not.toContain('\ufffd')
  })

  it('never splits a surrogate pair when cutting', () => {
    expect(cutText('ab😀', 3)).toBe('ab')
    expect(cutText('abc', 5)).toBe('abc')
  })

  it('counts a huge line without keeping it', () => {
    const chunk = new Uint8Array(1 << 20).fill(0x61)
    const scanner = new ReadWindowScanner({ offset: 1, limit: 10 })
    for (let i = 0; i < 16; i++) scanner.push(chunk)
    scanner.push(encoder.encode('\nend\n'))
    const window = scanner.finish()
    expect(window.lines).toEqual(['a'.repeat(2000) + LINE_TRUNCATED_SUFFIX, 'end'])
  })
})

describe('the output cap', () => {
  it('caps the window at 50 KiB on a line boundary with the capped footer', () => {
    const line = 'z'.repeat(1000)
    const window = scan(`${line}\n`.repeat(100))
    expect(window.capped).toBe(true)
    const last = window.lines.length
    expect(formatReadFooter(window)).toBe(
      `(Output capped. Showing lines 1-${last}. Use offset=${last + 1} to continue.)`,
    )
    const shown = window.lines.map((text, i) => `${i + 1}: ${text}\n`).join('')
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(READ_MAX_OUTPUT_BYTES)
    expect(Buffer.byteLength(shown) + 1000).toBeGreaterThan(READ_MAX_OUTPUT_BYTES)
  })

  it('never splits a multi-byte character at the cap', () => {
    const line = '日本語😀'.repeat(100)
    const window = scan(`${line}\n`.repeat(100), {}, 3)
    expect(window.capped).toBe(true)
    for (const text of window.lines) expect(text).toBe(line)
    const shown = window.lines.map((text, i) => `${i + 1}: ${text}\n`).join('')
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(READ_MAX_OUTPUT_BYTES)
  })

  it('stops reading once capped', () => {
    const scanner = new ReadWindowScanner({ offset: 1, limit: 2000 })
    const block = encoder.encode(`${'q'.repeat(1999)}\n`.repeat(40))
    expect(scanner.push(block)).toBe(false)
    expect(scanner.finish().totalLines).toBeUndefined()
  })
})

describe('text checks', () => {
  it('rejects a NUL byte anywhere it scans', () => {
    expect(() => scan(Uint8Array.from([0x61, 0x0a, 0x00]))).toThrow(
      expect.objectContaining({ code: 'FS_NOT_TEXT', details: { reason: 'nul' } }),
    )
    expect(() => scan(Uint8Array.from([0x61, 0x0a, 0x62, 0x00]), { offset: 1, limit: 1 })).toThrow(
      'NUL',
    )
  })

  it('rejects invalid utf-8 inside the window', () => {
    const bad = Uint8Array.from([0x61, 0xff, 0x0a])
    expect(() => scan(bad)).toThrow(
      expect.objectContaining({ code: 'FS_NOT_TEXT', details: { reason: 'invalid-utf8' } }),
    )
  })

  it('does not decode lines outside the window', () => {
    const bytes = Uint8Array.from([0x61, 0x0a, 0xff, 0x0a])
    expect(scan(bytes, { offset: 1, limit: 1 }).totalLines).toBe(2)
  })
})

describe('seeking and counting', () => {
  it('starts from a known line start and reports every indexed line start', () => {
    const text = Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n')
    const starts: [number, number][] = []
    scan(text, { indexEvery: 3, onLineStart: (line, byte) => starts.push([line, byte]) })
    expect(starts).toEqual([
      [4, 9],
      [7, 18],
      [10, 27],
    ])
    const from = scan(text.slice(18), { offset: 8, limit: 2, firstLine: 7, firstByte: 18 })
    expect(from.lines).toEqual(['l8', 'l9'])
    expect(from.totalLines).toBe(10)
  })

  it('stops after the window when the total is known', () => {
    const scanner = new ReadWindowScanner({ offset: 1, limit: 1, knownTotal: 99 })
    expect(scanner.push(encoder.encode('a\nb\nc'))).toBe(false)
    const window: ReadWindow = scanner.finish()
    expect(window).toEqual({
      startLine: 1,
      lines: ['a'],
      totalLines: 99,
      capped: false,
      reachedEnd: false,
    })
  })

  it('counts text lines by the same rule as the scanner', () => {
    for (const text of ['', 'a', 'a\n', 'a\nb', '\n\n', 'a\r\nb\r\n']) {
      expect(countTextLines(text)).toBe(scan(text).totalLines)
    }
  })
})

describe('the window of a whole text', () => {
  /** Deterministic pseudo-random numbers in [0, 1). */
  function random(seed: number): () => number {
    let state = seed
    return () => {
      state = (state * 1103515245 + 12345) % 2 ** 31
      return state / 2 ** 31
    }
  }

  const PIECES = ['a', 'word ', 'é', '€', '😀', '\r', '\ufeff', ' ']

  /** Lines of random length (now and then over the 2000-character cut), some CRLF. */
  function randomText(next: () => number, lines: number): string {
    const out: string[] = []
    for (let i = 0; i < lines; i++) {
      const long = next() < 0.05
      const length = Math.floor(next() * (long ? 9000 : 60))
      let line = ''
      while (line.length < length) line += PIECES[Math.floor(next() * PIECES.length)]
      out.push(next() < 0.2 ? `${line}\r` : line)
    }
    return out.join('\n') + (next() < 0.5 ? '\n' : '')
  }

  it('is the byte scanner’s window for any text, offset and limit', () => {
    const next = random(11)
    for (let round = 0; round < 400; round++) {
      const text = randomText(next, Math.floor(next() * (round % 10 === 0 ? 3000 : 40)))
      const total = countTextLines(text)
      const offset = 1 + Math.floor(next() * (total + 2))
      const limit = 1 + Math.floor(next() * (next() < 0.1 ? 2500 : total + 1))
      const expected = scan(text, { offset, limit, stripBom: false })
      expect(textWindow(text, offset, limit), `round ${round}`).toEqual(expected)
    }
  })

  it('caps at 50 KiB and then leaves the total uncounted, as the scanner does', () => {
    const text = `${'y'.repeat(100)}\n`.repeat(1000)
    const window = textWindow(text, 1, 2000)
    expect(window).toEqual(scan(text, { stripBom: false }))
    expect(window.capped).toBe(true)
    expect(window.totalLines).toBeUndefined()
    expect(renderReadOutput('/w/a.txt', window).length).toBeLessThan(READ_MAX_OUTPUT_BYTES + 200)
  })

  it('keeps a leading byte-order mark (readText already dropped the file’s own)', () => {
    expect(textWindow('\ufeffa\nb', 1, 10).lines).toEqual(['\ufeffa', 'b'])
    expect(textWindow('', 1, 10)).toEqual({
      startLine: 1,
      lines: [],
      totalLines: 0,
      capped: false,
      reachedEnd: true,
    })
  })
})
