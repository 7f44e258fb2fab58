import { describe, expect, it } from 'vitest'
import { FsError } from '../src/index'
import { decodeText, encodeText, hasUtf8Bom, TextChunkDecoder } from '../src/text'

const bytes = (...values: number[]) => Uint8Array.from(values)

describe('text rule', () => {
  it('decodes UTF-8 and hides a byte-order mark', () => {
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0x68, 0x69))).toEqual({ text: 'hi', bom: true })
    expect(decodeText(encodeText('é'))).toEqual({ text: 'é', bom: false })
  })

  it('encodes with the byte-order mark on request', () => {
    expect(encodeText('a', true)).toEqual(bytes(0xef, 0xbb, 0xbf, 0x61))
    expect(hasUtf8Bom(encodeText('a', true))).toBe(true)
    expect(hasUtf8Bom(bytes(0xef, 0xbb))).toBe(false)
  })

  it('never writes two byte-order marks when the text brings its own', () => {
    expect(encodeText('\uFEFFa', true)).toEqual(bytes(0xef, 0xbb, 0xbf, 0x61))
    expect(encodeText('\uFEFFa', false)).toEqual(bytes(0xef, 0xbb, 0xbf, 0x61))
  })

  it('refuses a NUL byte and invalid UTF-8 with FS_NOT_TEXT naming the path', () => {
    for (const input of [bytes(0x61, 0x00), bytes(0xff), bytes(0xed, 0xa0, 0x80)]) {
      try {
        decodeText(input, '/w/f')
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(FsError)
        expect(error).toMatchObject({ code: 'FS_NOT_TEXT', path: '/w/f' })
      }
    }
  })

  it('joins a character split across chunks', () => {
    const decoder = new TextChunkDecoder()
    const euro = encodeText('€')
    expect(decoder.push(euro.subarray(0, 1)) + decoder.push(euro.subarray(1)) + decoder.end()).toBe(
      '€',
    )
  })

  it('refuses a character cut off by the end of the input', () => {
    const decoder = new TextChunkDecoder()
    decoder.push(bytes(0xe2, 0x82))
    expect(() => decoder.end()).toThrow(FsError)
  })
  it('decodes any split of mixed text into chunks like the whole, BOM dropped once', () => {
    const whole = concatBytes(bytes(0xef, 0xbb, 0xbf), encodeText('a\ufeffé€😀\nz'))
    for (let first = 0; first <= whole.length; first++) {
      for (let second = first; second <= whole.length; second++) {
        const decoder = new TextChunkDecoder()
        const parts = [whole.slice(0, first), whole.slice(first, second), whole.slice(second)]
        const text = parts.map((part) => decoder.push(part)).join('') + decoder.end()
        expect(text).toBe('a\ufeffé€😀\nz')
      }
    }
  })

  it('keeps no reference to a chunk after push returns', () => {
    const decoder = new TextChunkDecoder()
    const chunk = encodeText('x😀')
    const first = decoder.push(chunk.subarray(0, 3))
    chunk.fill(0x41)
    chunk.set(encodeText('😀').subarray(2), 0)
    expect(first + decoder.push(chunk.subarray(0, 2)) + decoder.end()).toBe('x😀')
  })

  it('refuses invalid bytes and NUL in any chunk or across a split', () => {
    const cases = [
      [bytes(0x61), bytes(0x00)],
      [bytes(0xe2), bytes(0x41, 0x42)],
      [bytes(0xf0, 0x9f), bytes(0x98), bytes(0x41)],
      [bytes(0xc0, 0x80)],
      [bytes(0x80)],
    ]
    for (const parts of cases) {
      const decoder = new TextChunkDecoder('/w/f')
      expect(() => {
        for (const part of parts) decoder.push(part)
        decoder.end()
      }).toThrow(FsError)
    }
  })
})

function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
