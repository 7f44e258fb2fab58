// Contract cases for writeText (each intent) and the FIFO serialisation of mutations.
import { describe, expect, it } from 'vitest'
import {
  abortedSignal,
  concat,
  decode,
  encode,
  failureCode,
  type FileSystemContractFixture,
} from './fixture'

export function writeCases(fixture: () => FileSystemContractFixture): void {
  describe('writeText', () => {
    it('creates a file and reports create with no previous text', async () => {
      const f = fixture()
      const target = await f.fs.resolve('a.txt')
      const outcome = await f.fs.writeText(target, 'hello\n')
      expect(outcome.operation).toBe('create')
      expect(outcome.previousText).toBeNull()
      expect(outcome.version).toBe((await f.fs.stat(target))?.version)
      expect(decode(await f.readBytes('a.txt'))).toBe('hello\n')
    })

    it('creates missing parent directories', async () => {
      const f = fixture()
      await f.fs.writeText(await f.fs.resolve('deep/er/a.txt'), 'x')
      expect(decode(await f.readBytes('deep/er/a.txt'))).toBe('x')
    })

    it('replaces a file and reports update with the previous text', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('old'))
      const outcome = await f.fs.writeText(await f.fs.resolve('a.txt'), 'new')
      expect(outcome.operation).toBe('update')
      expect(outcome.previousText).toBe('old')
      expect(decode(await f.readBytes('a.txt'))).toBe('new')
    })

    it('writes an empty file', async () => {
      const f = fixture()
      await f.fs.writeText(await f.fs.resolve('empty.txt'), '')
      expect(await f.readBytes('empty.txt')).toEqual(new Uint8Array(0))
    })

    it('keeps the byte-order mark of the file it replaces', async () => {
      const f = fixture()
      await f.writeBytes('bom.txt', concat([Uint8Array.of(0xef, 0xbb, 0xbf), encode('old')]))
      const outcome = await f.fs.writeText(await f.fs.resolve('bom.txt'), 'new')
      expect(outcome.previousText).toBe('old')
      expect(await f.readBytes('bom.txt')).toEqual(
        concat([Uint8Array.of(0xef, 0xbb, 0xbf), encode('new')]),
      )
    })

    it('creates an absent file under createIfAbsent', async () => {
      const f = fixture()
      const outcome = await f.fs.writeText(await f.fs.resolve('a.txt'), 'x', {
        kind: 'createIfAbsent',
      })
      expect(outcome.operation).toBe('create')
    })

    it('refuses createIfAbsent over an existing file with FS_NOT_OBSERVED', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('keep'))
      const write = f.fs.writeText(await f.fs.resolve('a.txt'), 'x', { kind: 'createIfAbsent' })
      expect(await failureCode(write)).toBe('FS_NOT_OBSERVED')
      expect(decode(await f.readBytes('a.txt'))).toBe('keep')
    })

    it('replaces a file at the expected version under replaceIfVersion', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('old'))
      const target = await f.fs.resolve('a.txt')
      const version = (await f.fs.stat(target))!.version
      const outcome = await f.fs.writeText(target, 'new', { kind: 'replaceIfVersion', version })
      expect(outcome.operation).toBe('update')
      expect(decode(await f.readBytes('a.txt'))).toBe('new')
    })

    it('refuses replaceIfVersion on a changed file with FS_STALE_VERSION', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('one'))
      const target = await f.fs.resolve('a.txt')
      const version = (await f.fs.stat(target))!.version
      await f.writeBytes('a.txt', encode('two'))
      const write = f.fs.writeText(target, 'three', { kind: 'replaceIfVersion', version })
      expect(await failureCode(write)).toBe('FS_STALE_VERSION')
      expect(decode(await f.readBytes('a.txt'))).toBe('two')
    })

    it('refuses a directory target with FS_NOT_REGULAR_FILE', async () => {
      const f = fixture()
      await f.makeDirectory('dir')
      expect(await failureCode(f.fs.writeText(await f.fs.resolve('dir'), 'x'))).toBe(
        'FS_NOT_REGULAR_FILE',
      )
    })

    it('refuses a path below a file with FS_NOT_FOUND', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('keep'))
      expect(await failureCode(f.fs.writeText(await f.fs.resolve('a.txt/b.txt'), 'x'))).toBe(
        'FS_NOT_FOUND',
      )
      expect(decode(await f.readBytes('a.txt'))).toBe('keep')
    })

    it('refuses an aborted write with FS_ABORTED and changes nothing', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('keep'))
      const signal = abortedSignal()
      expect(
        await failureCode(f.fs.writeText(await f.fs.resolve('a.txt'), 'x', undefined, signal)),
      ).toBe('FS_ABORTED')
      expect(
        await failureCode(f.fs.writeText(await f.fs.resolve('b.txt'), 'x', undefined, signal)),
      ).toBe('FS_ABORTED')
      expect(decode(await f.readBytes('a.txt'))).toBe('keep')
      expect(await f.readBytes('b.txt')).toBeUndefined()
    })
  })
}

export function serialisationCases(fixture: () => FileSystemContractFixture): void {
  describe('serialisation', () => {
    it('lets exactly one of many concurrent guarded edits at one version win', async () => {
      const f = fixture()
      await f.writeBytes('count.txt', encode('count: 0\n'))
      const target = await f.fs.resolve('count.txt')
      const version = (await f.fs.stat(target))!.version
      const edits = Array.from({ length: 20 }, (_, index) =>
        f.fs.editText(
          target,
          { oldString: 'count: 0', newString: `count: ${index + 1}` },
          { version },
        ),
      )
      const settled = await Promise.allSettled(edits)
      const won = settled.filter((result) => result.status === 'fulfilled')
      const codes = await Promise.all(
        settled
          .filter((result) => result.status === 'rejected')
          .map((result) => failureCode(Promise.reject(result.reason))),
      )
      expect(won).toHaveLength(1)
      expect(codes).toEqual(Array(19).fill('FS_STALE_VERSION'))
      expect(decode(await f.readBytes('count.txt'))).toMatch(/^count: ([1-9]|1\d|20)\n$/)
    })

    it('applies concurrent unguarded edits one after another in call order', async () => {
      const f = fixture()
      await f.writeBytes('n.txt', encode('0'))
      const target = await f.fs.resolve('n.txt')
      const edits = Array.from({ length: 10 }, (_, index) =>
        f.fs.editText(target, { oldString: `${index}`, newString: `${index + 1}` }),
      )
      const outcomes = await Promise.all(edits)
      expect(outcomes.every((outcome) => outcome.replacements === 1)).toBe(true)
      expect(decode(await f.readBytes('n.txt'))).toBe('10')
    })

    it('leaves the last of concurrent unguarded writes in place', async () => {
      const f = fixture()
      const target = await f.fs.resolve('w.txt')
      const writes = Array.from({ length: 8 }, (_, index) =>
        f.fs.writeText(target, `write ${index}`),
      )
      const outcomes = await Promise.all(writes)
      expect(outcomes.map((outcome) => outcome.operation)).toEqual([
        'create',
        ...Array(7).fill('update'),
      ])
      expect(decode(await f.readBytes('w.txt'))).toBe('write 7')
    })
  })
}
