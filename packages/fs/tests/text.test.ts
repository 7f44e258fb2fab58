import { describe, expect, it } from 'vitest'
import { decodeText, encodeText, FsError, hasUtf8Bom, TextChunkDecoder } from '../src/index'

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
})
