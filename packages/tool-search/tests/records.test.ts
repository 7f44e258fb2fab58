// ripgrep's `path\0` lists read chunk by chunk: paths split across chunks (inside a multi-byte
// character too), names holding a newline or a BOM, bytes that are not UTF-8, and the stop.
import { describe, expect, it } from 'vitest'
import { PathListParser } from '../src/records'

function parse(chunks: Buffer[], stopAfter = Infinity): { paths: string[]; results: boolean[] } {
  const paths: string[] = []
  const parser = new PathListParser((path) => {
    paths.push(path)
    return paths.length < stopAfter
  })
  return { paths, results: chunks.map((chunk) => parser.push(chunk)) }
}

/** `whole` cut into chunks at every offset in `cuts`. */
function cut(whole: Buffer, cuts: number[]): Buffer[] {
  const bounds = [0, ...cuts, whole.length]
  return bounds.slice(1).map((end, i) => whole.subarray(bounds[i], end))
}

describe('path lists', () => {
  const names = ['src/a.ts', 'dir/é€😀.md', 'line\nbreak.txt', '\uFEFFbom.txt', 'x']
  const whole = Buffer.from(names.map((name) => `${name}\0`).join(''))

  it('gives each path whole however the bytes are cut', () => {
    for (let at = 1; at < whole.length; at++) {
      expect(parse(cut(whole, [at])).paths, `cut at ${at}`).toEqual(names)
    }
    const bytes = Array.from({ length: whole.length - 1 }, (_, i) => i + 1)
    expect(parse(cut(whole, bytes)).paths).toEqual(names)
  })

  it('waits for the NUL before giving the last path', () => {
    const { paths } = parse([Buffer.from('a\0b\0partial')])
    expect(paths).toEqual(['a', 'b'])
  })

  it('reads bytes that are not UTF-8 as U+FFFD, path by path', () => {
    const latin1 = Buffer.concat([
      Buffer.from('caf'),
      Buffer.from([0xe9, 0]),
      Buffer.from([0xe2, 0x82, 0]),
      Buffer.from('ok\0'),
    ])
    expect(parse([latin1]).paths).toEqual(['caf\uFFFD', '\uFFFD', 'ok'])
  })

  it('stops at the path its consumer had enough with, and says so', () => {
    expect(parse([Buffer.from('a\0b\0c\0')], 2)).toEqual({ paths: ['a', 'b'], results: [false] })
    expect(parse([Buffer.from('a\0b\0c\0')], 4)).toEqual({
      paths: ['a', 'b', 'c'],
      results: [true],
    })
  })
})
