// Contract cases for readText, streamText and streamBytes.
import { describe, expect, it } from 'vitest'
import {
  abortedSignal,
  collect,
  collectBytes,
  concat,
  decode,
  encode,
  failureCode,
  type FileSystemContractFixture,
} from './fixture'

const BOM = Uint8Array.of(0xef, 0xbb, 0xbf)

export function readCases(fixture: () => FileSystemContractFixture): void {
  describe('readText', () => {
    it('reads a file as text', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('line 1\nline 2'))
      expect(await f.fs.readText(await f.fs.resolve('a.txt'))).toBe('line 1\nline 2')
    })

    it('reads an empty file as an empty string', async () => {
      const f = fixture()
      await f.writeBytes('empty.txt', new Uint8Array(0))
      expect(await f.fs.readText(await f.fs.resolve('empty.txt'))).toBe('')
    })

    it('hides a byte-order mark', async () => {
      const f = fixture()
      await f.writeBytes('bom.txt', concat([BOM, encode('text')]))
      expect(await f.fs.readText(await f.fs.resolve('bom.txt'))).toBe('text')
    })

    it('rejects a file with a NUL byte as FS_NOT_TEXT', async () => {
      const f = fixture()
      await f.writeBytes('nul.bin', Uint8Array.of(0x61, 0x00, 0x62))
      expect(await failureCode(f.fs.readText(await f.fs.resolve('nul.bin')))).toBe('FS_NOT_TEXT')
    })

    it('rejects invalid UTF-8 as FS_NOT_TEXT', async () => {
      const f = fixture()
      await f.writeBytes('latin1.txt', Uint8Array.of(0x63, 0x61, 0x66, 0xe9))
      expect(await failureCode(f.fs.readText(await f.fs.resolve('latin1.txt')))).toBe('FS_NOT_TEXT')
    })

    it('rejects a missing file as FS_NOT_FOUND', async () => {
      const f = fixture()
      expect(await failureCode(f.fs.readText(await f.fs.resolve('nope.txt')))).toBe('FS_NOT_FOUND')
    })

    it('rejects a path below a file as FS_NOT_FOUND', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('a'))
      expect(await failureCode(f.fs.readText(await f.fs.resolve('a.txt/b')))).toBe('FS_NOT_FOUND')
    })

    it('rejects a directory as FS_NOT_REGULAR_FILE', async () => {
      const f = fixture()
      await f.makeDirectory('dir')
      expect(await failureCode(f.fs.readText(await f.fs.resolve('dir')))).toBe(
        'FS_NOT_REGULAR_FILE',
      )
    })

    it('rejects an aborted read with FS_ABORTED', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('a'))
      const read = f.fs.readText(await f.fs.resolve('a.txt'), abortedSignal())
      expect(await failureCode(read)).toBe('FS_ABORTED')
    })
  })

  describe('streamText', () => {
    it('yields chunks that join to the text readText returns', async () => {
      const f = fixture()
      const text = 'é😀 line\n'.repeat(100_000)
      await f.writeBytes('big.txt', encode(text))
      const target = await f.fs.resolve('big.txt')
      const chunks = await collect(f.fs.streamText(target))
      expect(chunks.length).toBeGreaterThan(1)
      expect(chunks.join('')).toBe(text)
      expect(chunks.join('')).toBe(await f.fs.readText(target))
    })

    it('hides a byte-order mark from the stream', async () => {
      const f = fixture()
      await f.writeBytes('bom.txt', concat([BOM, encode('text')]))
      expect((await collect(f.fs.streamText(await f.fs.resolve('bom.txt')))).join('')).toBe('text')
    })

    it('rejects a NUL byte deep in a large file as FS_NOT_TEXT', async () => {
      const f = fixture()
      await f.writeBytes('late.bin', concat([encode('x'.repeat(300_000)), Uint8Array.of(0)]))
      const stream = collect(f.fs.streamText(await f.fs.resolve('late.bin')))
      expect(await failureCode(stream)).toBe('FS_NOT_TEXT')
    })

    it('rejects a truncated character at the end as FS_NOT_TEXT', async () => {
      const f = fixture()
      await f.writeBytes('cut.txt', concat([encode('abc'), Uint8Array.of(0xe2, 0x82)]))
      const stream = collect(f.fs.streamText(await f.fs.resolve('cut.txt')))
      expect(await failureCode(stream)).toBe('FS_NOT_TEXT')
    })

    it('stops with FS_ABORTED when the signal fires between chunks', async () => {
      const f = fixture()
      await f.writeBytes('big.txt', encode('line\n'.repeat(300_000)))
      const controller = new AbortController()
      let chunks = 0
      const target = await f.fs.resolve('big.txt')
      const stream = async () => {
        for await (const _chunk of f.fs.streamText(target, controller.signal)) {
          chunks++
          controller.abort()
        }
      }
      expect(await failureCode(stream())).toBe('FS_ABORTED')
      expect(chunks).toBe(1)
    })

    it('rejects a missing file and a directory with their codes', async () => {
      const f = fixture()
      await f.makeDirectory('dir')
      const missing = collect(f.fs.streamText(await f.fs.resolve('nope.txt')))
      expect(await failureCode(missing)).toBe('FS_NOT_FOUND')
      const directory = collect(f.fs.streamText(await f.fs.resolve('dir')))
      expect(await failureCode(directory)).toBe('FS_NOT_REGULAR_FILE')
    })
  })

  describe('streamBytes', () => {
    it('yields the raw bytes without validating them', async () => {
      const f = fixture()
      const bytes = concat([BOM, Uint8Array.of(0x00, 0xff, 0x0a)])
      await f.writeBytes('raw.bin', bytes)
      expect(concat(await collectBytes(f.fs.streamBytes(await f.fs.resolve('raw.bin'))))).toEqual(
        bytes,
      )
    })

    it('yields chunks that, each copied on arrival, join to a file of several chunks', async () => {
      const f = fixture()
      const bytes = new Uint8Array(3 * 1024 * 1024 + 123)
      for (let at = 0; at < bytes.length; at++) bytes[at] = (at * 7 + (at >>> 16)) & 0xff
      await f.writeBytes('many.bin', bytes)
      const target = await f.fs.resolve('many.bin')
      const chunks = await collectBytes(f.fs.streamBytes(target, { start: 3 }))
      expect(chunks.length).toBeGreaterThan(1)
      expect(Buffer.compare(concat(chunks), bytes.subarray(3))).toBe(0)
    })

    it('stops cleanly when the caller leaves after the first chunk', async () => {
      const f = fixture()
      await f.writeBytes('many.txt', encode('line\n'.repeat(1024 * 1024)))
      const target = await f.fs.resolve('many.txt')
      let first: string | undefined
      for await (const chunk of f.fs.streamBytes(target)) {
        first = decode(chunk.subarray(0, 5))
        break
      }
      expect(first).toBe('line\n')
      const outcome = await f.fs.writeText(target, 'replaced')
      expect(outcome.operation).toBe('update')
      expect(decode(await f.readBytes('many.txt'))).toBe('replaced')
    })

    it('starts at the given byte offset', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('0123456789'))
      const chunks = await collectBytes(f.fs.streamBytes(await f.fs.resolve('a.txt'), { start: 4 }))
      expect(decode(concat(chunks))).toBe('456789')
    })

    it('streams when the version guard matches', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('abc'))
      const target = await f.fs.resolve('a.txt')
      const version = (await f.fs.stat(target))!.version
      expect(decode(concat(await collectBytes(f.fs.streamBytes(target, { version }))))).toBe('abc')
    })

    it('rejects a stale version guard with FS_STALE_VERSION', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('abc'))
      const target = await f.fs.resolve('a.txt')
      const version = (await f.fs.stat(target))!.version
      await f.writeBytes('a.txt', encode('abd'))
      const stream = collectBytes(f.fs.streamBytes(target, { version }))
      expect(await failureCode(stream)).toBe('FS_STALE_VERSION')
    })
  })
}
