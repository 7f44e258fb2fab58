import { stat } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { EditorRequestError, MemoryEditor } from './helpers/editor'
import { fsError, useSetup } from './helpers/setup'

const setup = useSetup()

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

describe('new files in new folders', () => {
  it('makes the missing folders on disk, then writes once through an editor that makes none', async () => {
    const editor = new MemoryEditor({ makesFolders: false })
    const { fs, path, disk } = await setup({ clientOf: () => editor })
    const target = await fs.resolve('docs/guide/new.md')
    expect(await fs.stat(target)).toBeUndefined()
    expect(await exists(path('docs'))).toBe(false)
    const outcome = await fs.writeText(target, '# New\n', { kind: 'createIfAbsent' })
    expect(outcome).toMatchObject({ operation: 'create', previousText: null })
    expect(editor.writes).toEqual([{ path: path('docs/guide/new.md'), content: '# New\n' }])
    expect(await disk('docs/guide/new.md')).toBe('# New\n')
  })

  it('takes the folders it made away when the editor write fails, and keeps folders that were there', async () => {
    const editor = new MemoryEditor({ makesFolders: false })
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('docs/keep.md', 'keep')
    editor.intercept = async (request) => {
      if (request.method === 'write') throw new EditorRequestError(-32603, 'disk on fire')
    }
    const write = fs.writeText(await fs.resolve('docs/a/b/new.md'), 'x')
    await expect(write).rejects.toEqual(fsError('FS_IO', 'disk on fire'))
    expect(await exists(path('docs/a'))).toBe(false)
    expect(await exists(path('docs/keep.md'))).toBe(true)
  })

  it('makes no folder below a file', async () => {
    const editor = new MemoryEditor({ makesFolders: false })
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'keep')
    const write = fs.writeText(await fs.resolve('a.txt/deeper/b.txt'), 'x')
    await expect(write).rejects.toEqual(fsError('FS_NOT_FOUND'))
    expect(editor.writes).toEqual([])
    expect(await exists(path('a.txt/deeper'))).toBe(false)
  })
})
