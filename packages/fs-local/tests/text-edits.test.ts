import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { failureOf, setupLocal, type LocalSetup } from './helpers/local'

let local: LocalSetup
beforeEach(async () => {
  local = await setupLocal()
})
afterEach(() => local.cleanup())

const BOM = Buffer.from([0xef, 0xbb, 0xbf])
const at = (relative: string) => join(local.root, relative)

async function edit(
  bytes: Buffer | string,
  oldString: string,
  newString: string,
  replaceAll = false,
) {
  await writeFile(at('f.txt'), bytes)
  const outcome = await local.fs.editText(await local.fs.resolve('f.txt'), {
    oldString,
    newString,
    replaceAll,
  })
  return { outcome, bytes: await readFile(at('f.txt')) }
}

describe('edits of large files', () => {
  it('rewrites only the matches of a multi-MiB BOM CRLF file, in several write batches', async () => {
    const line = (n: number) => `ligne ${n} é😀 ${n % 3 === 0 ? 'MARK' : 'rien'} fin\r\n`
    const text = Array.from({ length: 6000 }, (_, n) => line(n)).join('')
    const bigger = text.repeat(20)
    const { outcome, bytes } = await edit(
      Buffer.concat([BOM, Buffer.from(bigger)]),
      'MARK fin\n',
      'X\nY fin\n',
      true,
    )
    expect(outcome.replacements).toBe(40_000)
    const expected = bigger.replaceAll('MARK fin\r\n', 'X\r\nY fin\r\n')
    expect(bytes.equals(Buffer.concat([BOM, Buffer.from(expected)]))).toBe(true)
    expect(outcome.line).toBe(1)
  })
})

describe('line endings on disk', () => {
  it('keeps a CRLF file CRLF when the edit spans lines', async () => {
    const { bytes } = await edit('a\r\nb\r\nc\r\n', 'a\nb\n', 'x\ny\nz\n')
    expect(bytes.toString('latin1')).toBe('x\r\ny\r\nz\r\nc\r\n')
  })

  it('gives a one-line match in a CRLF file a CRLF replacement', async () => {
    const { bytes } = await edit('a\r\nb\r\n', 'b', 'b1\nb2')
    expect(bytes.toString('latin1')).toBe('a\r\nb1\r\nb2\r\n')
  })

  it('changes no byte outside the match of a mixed file', async () => {
    const { bytes, outcome } = await edit('one\r\ntwo\nthree\r\nfour\n', 'three', '3')
    expect(bytes.toString('latin1')).toBe('one\r\ntwo\n3\r\nfour\n')
    expect(outcome.line).toBe(3)
  })

  it('keeps a lone CR in the untouched part of a file', async () => {
    const { bytes } = await edit('a\rb\nc\n', 'c', 'd')
    expect(bytes.toString('latin1')).toBe('a\rb\nd\n')
  })

  it('edits the last line of a file without a trailing newline', async () => {
    const { bytes } = await edit('a\r\nb', 'b', 'c')
    expect(bytes.toString('latin1')).toBe('a\r\nc')
  })
})

describe('text rules on disk', () => {
  it('keeps the byte-order mark of a CRLF file through an edit', async () => {
    const { bytes } = await edit(Buffer.concat([BOM, Buffer.from('x\r\ny\r\n')]), 'x\ny', 'z')
    expect(bytes).toEqual(Buffer.concat([BOM, Buffer.from('z\r\n')]))
  })

  it('hides the byte-order mark from readText and streamText', async () => {
    await writeFile(at('bom.txt'), Buffer.concat([BOM, Buffer.from('hi')]))
    const target = await local.fs.resolve('bom.txt')
    expect(await local.fs.readText(target)).toBe('hi')
    const chunks: string[] = []
    for await (const chunk of local.fs.streamText(target)) chunks.push(chunk)
    expect(chunks).toEqual(['hi'])
  })

  it('writes $& and $1 in a replacement literally', async () => {
    const { bytes } = await edit('cost: 5', '5', '$& and $1 and $$')
    expect(bytes.toString()).toBe('cost: $& and $1 and $$')
  })

  it('replaces overlapping occurrences without overlap', async () => {
    const { bytes, outcome } = await edit('xxxxx', 'xx', 'y', true)
    expect(outcome.replacements).toBe(2)
    expect(bytes.toString()).toBe('yyx')
  })

  it('rejects an edit of a file with a NUL byte and leaves its bytes', async () => {
    const original = Buffer.from([0x61, 0x00, 0x62])
    await writeFile(at('f.txt'), original)
    const target = await local.fs.resolve('f.txt')
    const failure = await failureOf(local.fs.editText(target, { oldString: 'a', newString: 'c' }))
    expect(failure.code).toBe('FS_NOT_TEXT')
    expect(failure.message).toBe(
      `${at('f.txt')} is not a UTF-8 text file (it contains a NUL byte, so it looks binary); it cannot be read or edited as text.`,
    )
    expect(await readFile(at('f.txt'))).toEqual(original)
  })

  it('rejects invalid UTF-8 the same way in read, stream and edit', async () => {
    await writeFile(at('bad.txt'), Buffer.from([0x61, 0xc3, 0x28]))
    const target = await local.fs.resolve('bad.txt')
    const stream = async () => {
      for await (const _chunk of local.fs.streamText(target)) continue
    }
    const codes = [
      (await failureOf(local.fs.readText(target))).code,
      (await failureOf(stream())).code,
      (await failureOf(local.fs.editText(target, { oldString: 'a', newString: 'b' }))).code,
    ]
    expect(codes).toEqual(['FS_NOT_TEXT', 'FS_NOT_TEXT', 'FS_NOT_TEXT'])
  })

  it('reads an empty file as empty text and edits of it find nothing', async () => {
    await writeFile(at('empty.txt'), '')
    const target = await local.fs.resolve('empty.txt')
    expect(await local.fs.readText(target)).toBe('')
    const edit = local.fs.editText(target, { oldString: 'x', newString: 'y' })
    expect((await failureOf(edit)).code).toBe('FS_EDIT_NOT_FOUND')
  })

  it('validates UTF-8 split across stream chunks', async () => {
    // The fourth chunk ends after (64 + 128 + 256 + 512) KiB: é straddles that end.
    const text = `${'a'.repeat(960 * 1024 - 1)}é${'b'.repeat(10)}`
    await writeFile(at('split.txt'), text)
    const chunks: string[] = []
    for await (const chunk of local.fs.streamText(await local.fs.resolve('split.txt'))) {
      chunks.push(chunk)
    }
    expect(chunks.length).toBe(5)
    expect(chunks[3]!.endsWith('a')).toBe(true)
    expect(chunks[4]!.startsWith('é')).toBe(true)
    expect(chunks.join('')).toBe(text)
  })
})

describe('limits', () => {
  it('refuses to edit a file over maxEditBytes with FS_TOO_LARGE', async () => {
    const small = await setupLocal({ maxEditBytes: 16 })
    try {
      await writeFile(join(small.root, 'big.txt'), 'x'.repeat(17))
      const target = await small.fs.resolve('big.txt')
      const failure = await failureOf(small.fs.editText(target, { oldString: 'x', newString: 'y' }))
      expect(failure.code).toBe('FS_TOO_LARGE')
      expect(failure.message).toContain('17 bytes, over the 16-byte limit')
      await writeFile(join(small.root, 'fits.txt'), 'x'.repeat(16))
      const fits = await small.fs.resolve('fits.txt')
      const outcome = await small.fs.editText(fits, {
        oldString: 'x',
        newString: 'y',
        replaceAll: true,
      })
      expect(outcome.replacements).toBe(16)
    } finally {
      await small.cleanup()
    }
  })

  it('reports no previous text when it replaces a file over 1 MiB', async () => {
    await writeFile(at('big.txt'), 'x'.repeat(1024 * 1024 + 1))
    const outcome = await local.fs.writeText(await local.fs.resolve('big.txt'), 'small')
    expect(outcome.operation).toBe('update')
    expect(outcome.previousText).toBeUndefined()
  })

  it('reports no previous text when it replaces a binary file', async () => {
    await writeFile(at('bin'), Buffer.from([0, 1, 2]))
    const outcome = await local.fs.writeText(await local.fs.resolve('bin'), 'text')
    expect(outcome).toMatchObject({ operation: 'update', previousText: undefined })
    expect(await readFile(at('bin'), 'utf8')).toBe('text')
  })

  it('streams in chunks that grow from 64 KiB to at most 4 MiB', async () => {
    await writeFile(at('big.bin'), Buffer.alloc(10 * 1024 * 1024 + 5, 0x61))
    const sizes: number[] = []
    for await (const chunk of local.fs.streamBytes(await local.fs.resolve('big.bin'), {
      start: 5,
    })) {
      sizes.push(chunk.length)
    }
    const kib = (count: number) => count * 1024
    const grown = [64, 128, 256, 512, 1024, 2048, 4096, 2112].map(kib)
    expect(sizes).toEqual(grown)
  })

  it('reads into the buffers the caller gives, in turn, in chunks no longer than they are', async () => {
    const bytes = Buffer.alloc(300 * 1024)
    for (let index = 0; index < bytes.length; index++) bytes[index] = index % 251
    await writeFile(at('given.bin'), bytes)
    const into = [new Uint8Array(100 * 1024), new Uint8Array(100 * 1024)] as const
    const copies: Uint8Array[] = []
    const homes: number[] = []
    for await (const chunk of local.fs.streamBytes(await local.fs.resolve('given.bin'), { into })) {
      homes.push(into.findIndex((buffer) => buffer.buffer === chunk.buffer))
      copies.push(chunk.slice())
    }
    expect(Buffer.concat(copies).equals(bytes)).toBe(true)
    expect(homes).toEqual([0, 1, 0, 1])
    expect(copies.map((chunk) => chunk.length)).toEqual([64, 100, 100, 36].map((k) => k * 1024))
    // Given buffers that hold nothing are not used: the provider reads into its own.
    const empty = [new Uint8Array(0), new Uint8Array(0)] as const
    const whole: Uint8Array[] = []
    const stream = local.fs.streamBytes(await local.fs.resolve('given.bin'), { into: empty })
    for await (const chunk of stream) whole.push(chunk.slice())
    expect(Buffer.concat(whole).equals(bytes)).toBe(true)
  })

  it('reuses chunk memory, so only copies of the chunks join to the file', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024)
    for (let index = 0; index < bytes.length; index++) bytes[index] = (index >>> 20) + 0x61
    await writeFile(at('big.txt'), bytes)
    const kept: Uint8Array[] = []
    const copies: Uint8Array[] = []
    for await (const chunk of local.fs.streamBytes(await local.fs.resolve('big.txt'))) {
      kept.push(chunk)
      copies.push(chunk.slice())
    }
    expect(Buffer.concat(copies).equals(bytes)).toBe(true)
    expect(Buffer.concat(kept).equals(bytes)).toBe(false)
  })
})
