import { describe, expect, it } from 'vitest'
import { MemoryEditor } from './helpers/editor'
import { fsError, useSetup } from './helpers/setup'

const setup = useSetup()

describe('one editor read per change after a preview', () => {
  it('an edit takes the text its preview read when the version is the one expected', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'one\ntwo\n')
    editor.type(path('a.txt'), 'one\ntwo\nunsaved\n')
    const call = {}
    const preview = await fs.resolve('a.txt', { call })
    const version = (await fs.stat(preview))!.version
    expect(await fs.readText(preview)).toBe('one\ntwo\nunsaved\n')
    const target = await fs.resolve('a.txt', { call })
    await fs.editText(target, { oldString: 'two', newString: 'TWO' }, { version })
    expect(editor.reads).toBe(1)
    expect(editor.writes).toEqual([{ path: path('a.txt'), content: 'one\nTWO\nunsaved\n' }])
  })

  it('a write takes its preview read too, and its diff base is that text', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'old\n')
    const call = {}
    const version = (await fs.stat(await fs.resolve('a.txt', { call })))!.version
    const target = await fs.resolve('a.txt', { call })
    const outcome = await fs.writeText(target, 'new\n', { kind: 'replaceIfVersion', version })
    expect(outcome).toMatchObject({ operation: 'update', previousText: 'old\n' })
    expect(editor.reads).toBe(1)
    expect(editor.writes).toEqual([{ path: path('a.txt'), content: 'new\n' }])
  })

  it('reads again when the file was saved on disk since the preview, and refuses the stale edit', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'one\n')
    const call = {}
    const version = (await fs.stat(await fs.resolve('a.txt', { call })))!.version
    await put('a.txt', 'one\nsaved meanwhile\n')
    const target = await fs.resolve('a.txt', { call })
    const edit = fs.editText(target, { oldString: 'one', newString: 'ONE' }, { version })
    await expect(edit).rejects.toEqual(fsError('FS_STALE_VERSION'))
    expect(editor.reads).toBe(2)
    expect(editor.writes).toEqual([])
  })

  it('reads again when another call changed the buffer through the editor since the preview', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'a b\n')
    const call = {}
    const version = (await fs.stat(await fs.resolve('a.txt', { call })))!.version
    const other = await fs.resolve('a.txt', { call: {} })
    await fs.editText(other, { oldString: 'b', newString: 'B' }, { version })
    const mine = await fs.resolve('a.txt', { call })
    const edit = fs.editText(mine, { oldString: 'a', newString: 'A' }, { version })
    await expect(edit).rejects.toEqual(fsError('FS_STALE_VERSION'))
    expect(editor.reads).toBe(3)
    expect(editor.writes).toEqual([{ path: path('a.txt'), content: 'a B\n' }])
  })

  it('reads again for another call, an unguarded edit, or a second edit of the same call', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'a b c\n')
    const call = {}
    const version = (await fs.stat(await fs.resolve('a.txt', { call })))!.version
    const other = await fs.resolve('a.txt', { call: {} })
    await expect(
      fs.editText(other, { oldString: 'a', newString: 'A' }, { version }),
    ).resolves.toMatchObject({ replacements: 1 })
    expect(editor.reads).toBe(2)
    const mine = await fs.resolve('a.txt', { call })
    await expect(fs.editText(mine, { oldString: 'b', newString: 'B' })).resolves.toMatchObject({
      replacements: 1,
    })
    expect(editor.reads).toBe(3)
  })
})
