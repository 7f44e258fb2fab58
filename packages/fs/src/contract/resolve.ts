// Contract cases for resolve and stat.
import { describe, expect, it } from 'vitest'
import { abortedSignal, encode, failureCode, type FileSystemContractFixture } from './fixture'

export function resolveCases(fixture: () => FileSystemContractFixture): void {
  describe('resolve', () => {
    it('resolves a relative path against the provider base', async () => {
      const f = fixture()
      const target = await f.fs.resolve('a.txt')
      expect(target.inputPath).toBe('a.txt')
      expect(target.displayPath).toBe(f.path('a.txt'))
    })

    it('resolves a relative path against the cwd option', async () => {
      const f = fixture()
      await f.makeDirectory('sub')
      const target = await f.fs.resolve('a.txt', { cwd: f.path('sub') })
      expect(target.displayPath).toBe(f.path('sub/a.txt'))
    })

    it('keeps an absolute path whatever the cwd option', async () => {
      const f = fixture()
      const target = await f.fs.resolve(f.path('b.txt'), { cwd: f.path('sub') })
      expect(target.displayPath).toBe(f.path('b.txt'))
    })

    it('resolves parent segments as a normal path outside the base', async () => {
      const f = fixture()
      await f.makeDirectory('sub')
      const sibling = await f.fs.resolve('../x.txt', { cwd: f.path('sub') })
      expect(sibling.displayPath).toBe(f.path('x.txt'))
      const outside = await f.fs.resolve('../escape.txt')
      expect(outside.displayPath).toBe(f.path('../escape.txt'))
      expect(outside.displayPath.startsWith(f.root)).toBe(false)
    })

    it('gives two spellings of one file one target key', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('a'))
      const plain = await f.fs.resolve('a.txt')
      const dotted = await f.fs.resolve('./sub/../a.txt')
      const absolute = await f.fs.resolve(f.path('a.txt'))
      expect(dotted.targetKey).toBe(plain.targetKey)
      expect(absolute.targetKey).toBe(plain.targetKey)
      expect((await f.fs.resolve('b.txt')).targetKey).not.toBe(plain.targetKey)
    })

    it('keeps the target key of a file once it is created', async () => {
      const f = fixture()
      const before = await f.fs.resolve('new/file.txt')
      await f.fs.writeText(before, 'hello')
      const after = await f.fs.resolve('new/file.txt')
      expect(after.targetKey).toBe(before.targetKey)
    })
  })

  describe('realPath', () => {
    it('gives an existing file under the real base, from any spelling', async () => {
      const f = fixture()
      await f.writeBytes('sub/a.txt', encode('a'))
      const base = await f.fs.realPath(f.root)
      expect(await f.fs.realPath('sub/a.txt')).toBe(`${base}/sub/a.txt`)
      expect(await f.fs.realPath('a.txt', { cwd: f.path('sub') })).toBe(`${base}/sub/a.txt`)
      expect(await f.fs.realPath(f.path('sub/a.txt'), { cwd: f.path('elsewhere') })).toBe(
        `${base}/sub/a.txt`,
      )
      expect(await f.fs.realPath('./sub/../sub/a.txt')).toBe(`${base}/sub/a.txt`)
    })

    it('places a path that does not exist under its nearest existing ancestor', async () => {
      const f = fixture()
      await f.makeDirectory('sub')
      const base = await f.fs.realPath(f.root)
      expect(await f.fs.realPath('sub/new/deep.txt')).toBe(`${base}/sub/new/deep.txt`)
      await f.fs.writeText(await f.fs.resolve('sub/new/deep.txt'), 'x')
      expect(await f.fs.realPath('sub/new/deep.txt')).toBe(`${base}/sub/new/deep.txt`)
    })

    it('takes parent segments out of the base', async () => {
      const f = fixture()
      const base = await f.fs.realPath(f.root)
      const outside = await f.fs.realPath('../escape.txt')
      expect(outside.startsWith(`${base}/`)).toBe(false)
      expect(outside.endsWith('/escape.txt')).toBe(true)
    })
  })
}

export function statCases(fixture: () => FileSystemContractFixture): void {
  describe('stat', () => {
    it('reports a missing path as undefined', async () => {
      const f = fixture()
      expect(await f.fs.stat(await f.fs.resolve('missing.txt'))).toBeUndefined()
    })

    it('reports a file with its size in bytes', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('héllo'))
      const info = await f.fs.stat(await f.fs.resolve('a.txt'))
      expect(info?.type).toBe('file')
      expect(info?.size).toBe(6)
      expect(typeof info?.version).toBe('string')
    })

    it('reports a directory', async () => {
      const f = fixture()
      await f.makeDirectory('dir')
      expect((await f.fs.stat(await f.fs.resolve('dir')))?.type).toBe('directory')
    })

    it('reports a path below a file as undefined', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('a'))
      expect(await f.fs.stat(await f.fs.resolve('a.txt/b.txt'))).toBeUndefined()
    })

    it('keeps the version of an unchanged file', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('a'))
      const target = await f.fs.resolve('a.txt')
      expect((await f.fs.stat(target))?.version).toBe((await f.fs.stat(target))?.version)
    })

    it('changes the version when the content changes behind the provider', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('one'))
      const target = await f.fs.resolve('a.txt')
      const before = await f.fs.stat(target)
      await f.writeBytes('a.txt', encode('two'))
      expect((await f.fs.stat(target))?.version).not.toBe(before?.version)
    })

    it('changes the version on a same-size write by the provider', async () => {
      const f = fixture()
      const target = await f.fs.resolve('a.txt')
      const first = await f.fs.writeText(target, 'aaaa')
      const second = await f.fs.writeText(target, 'bbbb')
      expect(second.version).not.toBe(first.version)
      expect((await f.fs.stat(target))?.version).toBe(second.version)
    })

    it('rejects an aborted stat with FS_ABORTED', async () => {
      const f = fixture()
      expect(await failureCode(f.fs.stat(await f.fs.resolve('a.txt'), abortedSignal()))).toBe(
        'FS_ABORTED',
      )
    })
  })
}
