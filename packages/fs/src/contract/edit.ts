// Contract cases for editText: outcomes, every error, literal matching, line endings, BOM.
import { describe, expect, it } from 'vitest'
import {
  abortedSignal,
  concat,
  decode,
  encode,
  failure,
  failureCode,
  type FileSystemContractFixture,
} from './fixture'

export function editCases(fixture: () => FileSystemContractFixture): void {
  const seed = async (text: string | Uint8Array, name = 'a.txt') => {
    const f = fixture()
    await f.writeBytes(name, typeof text === 'string' ? encode(text) : text)
    return {
      f,
      target: await f.fs.resolve(name),
      read: async () => decode(await f.readBytes(name)),
    }
  }

  describe('editText outcome', () => {
    it('replaces one occurrence and reports it', async () => {
      const { f, target, read } = await seed('alpha\nbeta\ngamma\n')
      const outcome = await f.fs.editText(target, { oldString: 'beta', newString: 'BETA' })
      expect(outcome.replacements).toBe(1)
      expect(outcome.replaceAll).toBe(false)
      expect(outcome.line).toBe(2)
      expect(outcome.version).toBe((await f.fs.stat(target))?.version)
      expect(await read()).toBe('alpha\nBETA\ngamma\n')
    })

    it('replaces every occurrence under replaceAll and counts them', async () => {
      const { f, target, read } = await seed('x y x y x')
      const outcome = await f.fs.editText(target, {
        oldString: 'x',
        newString: 'z',
        replaceAll: true,
      })
      expect(outcome.replacements).toBe(3)
      expect(outcome.replaceAll).toBe(true)
      expect(await read()).toBe('z y z y z')
    })

    it('reports the 1-based line of the first replacement', async () => {
      const { f, target } = await seed('a\nb\nc\nd\nc\n')
      const outcome = await f.fs.editText(target, {
        oldString: 'c',
        newString: 'C',
        replaceAll: true,
      })
      expect(outcome.line).toBe(3)
    })

    it('carries the whole texts as the excerpt of a small file', async () => {
      const { f, target } = await seed('one\ntwo\n')
      const { excerpt } = await f.fs.editText(target, { oldString: 'two', newString: '2' })
      expect(excerpt).toEqual({
        startLine: 1,
        oldText: 'one\ntwo\n',
        newText: 'one\n2\n',
        whole: true,
      })
    })

    it('carries the lines around the change as the excerpt of a large file', async () => {
      const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index + 1}`)
      const { f, target } = await seed(`${lines.join('\n')}\n`)
      const outcome = await f.fs.editText(target, {
        oldString: 'line 10000\n',
        newString: 'changed\n',
      })
      expect(outcome.line).toBe(10_000)
      expect(outcome.excerpt.whole).toBe(false)
      expect(outcome.excerpt.startLine).toBe(9_997)
      expect(outcome.excerpt.oldText).toBe(
        'line 9997\nline 9998\nline 9999\nline 10000\nline 10001\nline 10002\nline 10003\n',
      )
      expect(outcome.excerpt.newText).toBe(
        'line 9997\nline 9998\nline 9999\nchanged\nline 10001\nline 10002\nline 10003\n',
      )
    })
  })

  describe('editText refusals', () => {
    it('refuses text that is not there with FS_EDIT_NOT_FOUND', async () => {
      const { f, target, read } = await seed('abc')
      expect(await failureCode(f.fs.editText(target, { oldString: 'xyz', newString: 'q' }))).toBe(
        'FS_EDIT_NOT_FOUND',
      )
      expect(await read()).toBe('abc')
    })

    it('refuses several matches without replaceAll with FS_AMBIGUOUS_EDIT and the count', async () => {
      const { f, target, read } = await seed('x\nx\nx\n')
      const refused = await failure(f.fs.editText(target, { oldString: 'x', newString: 'y' }))
      expect(refused.code).toBe('FS_AMBIGUOUS_EDIT')
      expect(refused.message).toContain('3')
      expect(await read()).toBe('x\nx\nx\n')
    })

    it('refuses an empty oldString with FS_INVALID_EDIT', async () => {
      const { f, target } = await seed('abc')
      expect(await failureCode(f.fs.editText(target, { oldString: '', newString: 'q' }))).toBe(
        'FS_INVALID_EDIT',
      )
    })

    it('refuses an oldString equal to newString with FS_INVALID_EDIT', async () => {
      const { f, target } = await seed('abc')
      expect(await failureCode(f.fs.editText(target, { oldString: 'b', newString: 'b' }))).toBe(
        'FS_INVALID_EDIT',
      )
    })

    it('checks the expected version before matching', async () => {
      const { f, target, read } = await seed('one')
      const version = (await f.fs.stat(target))!.version
      await f.writeBytes('a.txt', encode('two'))
      const edit = f.fs.editText(target, { oldString: 'absent', newString: 'q' }, { version })
      expect(await failureCode(edit)).toBe('FS_STALE_VERSION')
      expect(await read()).toBe('two')
    })

    it('applies an edit at the expected version', async () => {
      const { f, target, read } = await seed('one')
      const version = (await f.fs.stat(target))!.version
      await f.fs.editText(target, { oldString: 'one', newString: 'two' }, { version })
      expect(await read()).toBe('two')
    })

    it('refuses a missing file, a directory and a binary file with their codes', async () => {
      const f = fixture()
      await f.makeDirectory('dir')
      await f.writeBytes('nul.bin', Uint8Array.of(0x61, 0x00))
      const request = { oldString: 'a', newString: 'b' }
      expect(await failureCode(f.fs.editText(await f.fs.resolve('nope.txt'), request))).toBe(
        'FS_NOT_FOUND',
      )
      expect(await failureCode(f.fs.editText(await f.fs.resolve('dir'), request))).toBe(
        'FS_NOT_REGULAR_FILE',
      )
      expect(await failureCode(f.fs.editText(await f.fs.resolve('nul.bin'), request))).toBe(
        'FS_NOT_TEXT',
      )
      expect(await f.readBytes('nul.bin')).toEqual(Uint8Array.of(0x61, 0x00))
    })

    it('refuses an aborted edit with FS_ABORTED and changes nothing', async () => {
      const { f, target, read } = await seed('abc')
      const edit = f.fs.editText(
        target,
        { oldString: 'b', newString: 'B' },
        undefined,
        abortedSignal(),
      )
      expect(await failureCode(edit)).toBe('FS_ABORTED')
      expect(await read()).toBe('abc')
    })
  })

  describe('editText matching', () => {
    it('treats $& and other replacement patterns as literal text', async () => {
      const { f, target, read } = await seed('price: $&1')
      await f.fs.editText(target, { oldString: '$&1', newString: "$&$1$$$'" })
      expect(await read()).toBe("price: $&$1$$$'")
    })

    it('counts overlapping occurrences without overlap', async () => {
      const { f, target, read } = await seed('aaaa')
      const outcome = await f.fs.editText(target, {
        oldString: 'aa',
        newString: 'b',
        replaceAll: true,
      })
      expect(outcome.replacements).toBe(2)
      expect(await read()).toBe('bb')
    })

    it('sees one match where an overlapping second would start', async () => {
      const { f, target, read } = await seed('aaa')
      await f.fs.editText(target, { oldString: 'aa', newString: 'b' })
      expect(await read()).toBe('ba')
    })

    it('matches an LF oldString in a CRLF file and writes CRLF', async () => {
      const { f, target, read } = await seed('one\r\ntwo\r\nthree\r\n')
      const outcome = await f.fs.editText(target, {
        oldString: 'one\ntwo',
        newString: 'uno\ndos\nmas',
      })
      expect(outcome.line).toBe(1)
      expect(await read()).toBe('uno\r\ndos\r\nmas\r\nthree\r\n')
    })

    it('keeps each line ending of a mixed file', async () => {
      const { f, target, read } = await seed('a\r\nb\nc\r\nd\n')
      await f.fs.editText(target, { oldString: 'b\nc', newString: 'B\nC' })
      expect(await read()).toBe('a\r\nB\nC\r\nd\n')
    })

    it('edits a file without a trailing newline', async () => {
      const { f, target, read } = await seed('first\nlast')
      const outcome = await f.fs.editText(target, { oldString: 'last', newString: 'final' })
      expect(outcome.line).toBe(2)
      expect(await read()).toBe('first\nfinal')
    })

    it('refuses any edit of an empty file with FS_EDIT_NOT_FOUND', async () => {
      const { f, target, read } = await seed('')
      expect(await failureCode(f.fs.editText(target, { oldString: 'a', newString: 'b' }))).toBe(
        'FS_EDIT_NOT_FOUND',
      )
      expect(await read()).toBe('')
    })

    it('keeps a byte-order mark through an edit', async () => {
      const bom = Uint8Array.of(0xef, 0xbb, 0xbf)
      const { f, target } = await seed(concat([bom, encode('hello')]))
      await f.fs.editText(target, { oldString: 'hello', newString: 'bye' })
      expect(await f.readBytes('a.txt')).toEqual(concat([bom, encode('bye')]))
    })

    it('keeps every byte between replacements of several widths in a BOM CRLF file', async () => {
      const bom = Uint8Array.of(0xef, 0xbb, 0xbf)
      const text = 'é1 ☃\r\n😀 é1\r\nend é1'
      const { f, target } = await seed(concat([bom, encode(text)]))
      const outcome = await f.fs.editText(target, {
        oldString: 'é1',
        newString: '𝄞\nz',
        replaceAll: true,
      })
      expect(outcome.replacements).toBe(3)
      const expected = '𝄞\r\nz ☃\r\n😀 𝄞\r\nz\r\nend 𝄞\r\nz'
      expect(await f.readBytes('a.txt')).toEqual(concat([bom, encode(expected)]))
    })

    it('removes a match when newString is empty, down to an empty file', async () => {
      const { f, target, read } = await seed('ünï')
      await f.fs.editText(target, { oldString: 'n', newString: '' })
      expect(await read()).toBe('üï')
      await f.fs.editText(target, { oldString: 'üï', newString: '' })
      expect(await f.readBytes('a.txt')).toEqual(new Uint8Array(0))
    })

    it('never matches half of a character', async () => {
      const { f, target, read } = await seed('a😀b')
      const half = '😀'.slice(1)
      expect(await failureCode(f.fs.editText(target, { oldString: half, newString: 'x' }))).toBe(
        'FS_EDIT_NOT_FOUND',
      )
      expect(await read()).toBe('a😀b')
    })
  })
}
