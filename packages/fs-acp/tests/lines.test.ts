import { describe, expect, it, vi } from 'vitest'
import {
  linesHold,
  linesVersion,
  parseLinesVersion,
  sliceLines,
  splitLines,
} from '../src/editor-lines'
import { MemoryEditor } from './helpers/editor'
import { fsError, useSetup } from './helpers/setup'

const setup = useSetup()
const FILE = 'one\ntwo\nthree\nfour\nfive\n'

describe('ranged reads through the editor', () => {
  it('checks the first ranged answer against a whole read, then asks for the range alone', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, put, path } = await setup({ clientOf: () => editor })
    await put('a.txt', FILE)
    const target = await fs.resolve('a.txt')
    const first = await fs.readLines(target, { line: 2, limit: 2 })
    expect(first).toEqual({
      text: 'two\nthree\n',
      version: (await fs.stat(target))?.version,
      source: 'editor',
      totalLines: 5,
    })
    editor.requests.length = 0
    const second = await fs.readLines(target, { line: 4, limit: 9 })
    expect(second?.text).toBe('four\nfive\n')
    expect(second?.version).toMatch(/^editor-lines:4:2:/)
    expect(editor.requests).toEqual([
      { method: 'read', path: path('a.txt'), range: { line: 4, limit: 9 } },
    ])
  })

  it('reads an editor that ignores the range whole from then on', async () => {
    const editor = new MemoryEditor({ ranges: 'ignored' })
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', FILE)
    const target = await fs.resolve('a.txt')
    expect((await fs.readLines(target, { line: 2, limit: 2 }))?.text).toBe('two\nthree\n')
    editor.requests.length = 0
    expect(await fs.readLines(target, { line: 2, limit: 2 })).toBeUndefined()
    expect(editor.requests).toEqual([])
  })

  it('never trusts an editor that counts lines from zero', async () => {
    const editor = new MemoryEditor({ ranges: 'from-zero' })
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', FILE)
    const target = await fs.resolve('a.txt')
    expect((await fs.readLines(target, { line: 1, limit: 2 }))?.text).toBe('one\ntwo\n')
    expect(await fs.readLines(target, { line: 3, limit: 1 })).toBeUndefined()
  })

  it('leaves a range past the end to the whole read, which says why', async () => {
    const editor = new MemoryEditor()
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', FILE)
    const target = await fs.resolve('a.txt')
    await fs.readLines(target, { line: 2, limit: 1 })
    editor.intercept = async (request) => {
      if (request.method === 'read' && request.range) throw new Error('beyond the end')
    }
    expect(await fs.readLines(target, { line: 40, limit: 1 })).toBeUndefined()
  })

  it('hands the session to the disk when a ranged read goes unanswered, as any read', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const editor = new MemoryEditor()
      const { fs, put } = await setup({ clientOf: () => editor })
      await put('a.txt', FILE)
      let arrived = () => {}
      const reached = new Promise<void>((resolve) => (arrived = resolve))
      editor.intercept = () => {
        arrived()
        return new Promise<void>(() => {})
      }
      const target = await fs.resolve('a.txt')
      const lines = fs.readLines(target, { line: 2, limit: 1 })
      await reached
      await vi.advanceTimersByTimeAsync(30_000)
      expect(await lines).toBeUndefined()
      expect(editor.notices).toHaveLength(1)
      expect(await fs.stat(target)).toMatchObject({ source: 'disk' })
      expect(editor.reads).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('leaves a file the disk serves to the usual reads', async () => {
    const editor = new MemoryEditor()
    const { fs, put } = await setup({ clientOf: () => editor, maxEditorBytes: 4 })
    await put('a.txt', FILE)
    expect(await fs.readLines(await fs.resolve('a.txt'), { line: 1, limit: 1 })).toBeUndefined()
    expect(editor.requests).toEqual([])
  })
})

describe('changes after a ranged read', () => {
  /** A target whose editor's ranged answers are trusted, and the version of lines 2–3. */
  async function linesRead(editor: MemoryEditor) {
    const setupDone = await setup({ clientOf: () => editor })
    await setupDone.put('a.txt', FILE)
    const target = await setupDone.fs.resolve('a.txt')
    await setupDone.fs.readLines(target, { line: 4, limit: 1 })
    const read = await setupDone.fs.readLines(target, { line: 2, limit: 2 })
    return { ...setupDone, target, version: read!.version }
  }

  it('edits when only lines outside the range changed, keeping that typing', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, path, target, version } = await linesRead(editor)
    editor.type(path('a.txt'), 'ONE typed\ntwo\nthree\nfour\nfive\nsix typed\n')
    await fs.editText(target, { oldString: 'three', newString: '3' }, { version })
    expect(editor.writes.map((write) => write.content)).toEqual([
      'ONE typed\ntwo\n3\nfour\nfive\nsix typed\n',
    ])
  })

  it('refuses an edit as stale once a line of the range changed, writing nothing', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, path, target, version } = await linesRead(editor)
    editor.type(path('a.txt'), 'one\ntwo typed\nthree\nfour\nfive\n')
    const edit = fs.editText(target, { oldString: 'four', newString: '4' }, { version })
    await expect(edit).rejects.toEqual(fsError('FS_STALE_VERSION'))
    expect(editor.writes).toEqual([])
  })

  it('refuses a write after only some lines were read, saying to read the whole file', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, target, version } = await linesRead(editor)
    const write = fs.writeText(target, 'new\n', { kind: 'replaceIfVersion', version })
    await expect(write).rejects.toEqual(fsError('FS_NOT_OBSERVED', 'Read the whole file first'))
    await expect(write).rejects.toMatchObject({ details: { operation: 'write', partial: true } })
    expect(editor.writes).toEqual([])
  })

  it('judges a version of some lines ahead of a change as the change itself would', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, target, version } = await linesRead(editor)
    const info = (await fs.stat(target))!
    const text = await fs.readText(target)
    expect(() => fs.checkVersion(target, version, { info, text }, 'edit')).not.toThrow()
    const typed = { info, text: text.replace('three', 'THREE') }
    expect(() => fs.checkVersion(target, version, typed, 'edit')).toThrow(/has changed/)
    expect(() => fs.checkVersion(target, version, { info }, 'edit')).toThrow(/has changed/)
    expect(() => fs.checkVersion(target, version, { info, text }, 'write')).toThrow(/whole file/)
    expect(() => fs.checkVersion(target, 'editor:other', { info }, 'edit')).toThrow(/has changed/)
  })
})

describe('versions of some lines', () => {
  it('split lines by the read rule: CR dropped, a trailing newline adds none', () => {
    expect(splitLines('')).toEqual([])
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b'])
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b'])
  })

  it('slice lines as an editor answers a range, newlines kept', () => {
    expect(sliceLines(FILE, 2, 2)).toBe('two\nthree\n')
    expect(sliceLines(FILE, 4, 10)).toBe('four\nfive\n')
    expect(sliceLines(FILE, 6, 1)).toBe('')
    expect(sliceLines('a\nb', 2, 1)).toBe('b')
  })

  it('hold while the lines do, whatever the last line of the range ends with', () => {
    const lines = parseLinesVersion(linesVersion(2, ['two', 'three']))
    expect(lines).toMatchObject({ line: 2, count: 2 })
    expect(linesHold(lines!, 'zero\ntwo\nthree')).toBe(true)
    expect(linesHold(lines!, 'zero\r\ntwo\r\nthree\r\nmore\r\n')).toBe(true)
    expect(linesHold(lines!, 'zero\ntwo\n')).toBe(false)
    expect(linesHold(lines!, 'two\nthree\n')).toBe(false)
    expect(parseLinesVersion('editor:abc')).toBeUndefined()
  })
})
