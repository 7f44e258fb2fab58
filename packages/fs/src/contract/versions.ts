// Contract cases for versions a caller checks ahead of a change (checkVersion) and for reads
// of some lines (readLines), which a provider may answer or leave to the whole read.
import { describe, expect, it } from 'vitest'
import { encode, failureCode, type FileSystemContractFixture } from './fixture'

export function versionCases(fixture: () => FileSystemContractFixture): void {
  describe('checkVersion', () => {
    it('lets a change through at the version stat gives and refuses an older one as stale', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('one\n'))
      const target = await f.fs.resolve('a.txt')
      const old = (await f.fs.stat(target))!.version
      await f.writeBytes('a.txt', encode('two\n'))
      const info = (await f.fs.stat(target))!
      const text = await f.fs.readText(target)
      expect(() => f.fs.checkVersion(target, info.version, { info, text }, 'edit')).not.toThrow()
      const stale = async () => f.fs.checkVersion(target, old, { info, text }, 'write')
      expect(await failureCode(stale())).toBe('FS_STALE_VERSION')
    })
  })

  describe('readLines', () => {
    it('gives the text from the start of the asked line, or leaves the read to the caller', async () => {
      const f = fixture()
      await f.writeBytes('a.txt', encode('one\ntwo\nthree\n'))
      const target = await f.fs.resolve('a.txt')
      const lines = await f.fs.readLines(target, { line: 2, limit: 1 })
      expect(lines === undefined || lines.text === 'two\n').toBe(true)
      const expected = lines === undefined ? undefined : { version: lines.version }
      const edit = { oldString: 'two', newString: '2' }
      expect((await f.fs.editText(target, edit, expected)).replacements).toBe(1)
    })
  })
}
