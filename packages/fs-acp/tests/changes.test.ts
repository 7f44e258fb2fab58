import { readFile, rename, rm, symlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { isFsError } from '@deepseek-ai/dsh-fs'
import { describe, expect, it } from 'vitest'
import { MemoryEditor } from './helpers/editor'
import { fsError, useSetup } from './helpers/setup'

const setup = useSetup()

describe('edits through the editor', () => {
  it('sends an edit as exactly one write of the edited text and leaves the disk alone', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, path, put, disk } = await setup({ clientOf: () => editor })
    await put('a.txt', 'alpha\nbeta\n')
    editor.type(path('a.txt'), 'alpha\nbeta\ngamma (unsaved)\n')
    const target = await fs.resolve('a.txt')
    const outcome = await fs.editText(target, { oldString: 'beta', newString: 'BETA' })
    expect(editor.writes).toEqual([
      { path: path('a.txt'), content: 'alpha\nBETA\ngamma (unsaved)\n' },
    ])
    expect(await disk('a.txt')).toBe('alpha\nbeta\n')
    expect(outcome).toMatchObject({ replacements: 1, replaceAll: false, line: 2 })
    expect(outcome.excerpt.newText).toBe('alpha\nBETA\ngamma (unsaved)\n')
    expect(outcome.version).toBe((await fs.stat(target))?.version)
  })

  it('refuses a guarded edit once the buffer changed since the stat, writing nothing', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'one\n')
    const target = await fs.resolve('a.txt')
    const version = (await fs.stat(target))!.version
    expect(await fs.readText(target)).toBe('one\n')
    editor.type(path('a.txt'), 'one\ntyped meanwhile\n')
    const edit = fs.editText(target, { oldString: 'one', newString: 'ONE' }, { version })
    await expect(edit).rejects.toEqual(fsError('FS_STALE_VERSION'))
    expect(editor.writes).toEqual([])
  })

  it('refuses stale and unobserved writes against the buffer, writing nothing', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'one')
    const target = await fs.resolve('a.txt')
    const version = (await fs.stat(target))!.version
    editor.type(path('a.txt'), 'two')
    const stale = fs.writeText(target, 'three', { kind: 'replaceIfVersion', version })
    await expect(stale).rejects.toEqual(fsError('FS_STALE_VERSION'))
    const unread = fs.writeText(target, 'three', { kind: 'createIfAbsent' })
    await expect(unread).rejects.toEqual(fsError('FS_NOT_OBSERVED'))
    expect(editor.writes).toEqual([])
  })

  it('keeps CRLF line endings and the BOM through an edit, changing only the match', async () => {
    const editor = new MemoryEditor({ saves: false })
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', '\uFEFFone\r\ntwo\r\nthree\r\n')
    const target = await fs.resolve('a.txt')
    await fs.editText(target, { oldString: 'one\ntwo', newString: 'uno\ndos\nmas' })
    expect(editor.writes.map((write) => write.content)).toEqual([
      '\uFEFFuno\r\ndos\r\nmas\r\nthree\r\n',
    ])
    expect(await fs.readText(target)).toBe('uno\r\ndos\r\nmas\r\nthree\r\n')
  })

  it('keeps the BOM of a file it replaces and reports the previous text', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put, disk } = await setup({ clientOf: () => editor })
    await put('a.txt', '\uFEFFold')
    const outcome = await fs.writeText(await fs.resolve('a.txt'), 'new')
    expect(outcome).toMatchObject({ operation: 'update', previousText: 'old' })
    expect(editor.writes).toEqual([{ path: path('a.txt'), content: '\uFEFFnew' }])
    expect(await disk('a.txt')).toBe('\uFEFFnew')
  })

  it('refuses an edit of a buffer over the edit limit with FS_TOO_LARGE', async () => {
    const editor = new MemoryEditor()
    const { fs, put } = await setup({ clientOf: () => editor, local: { maxEditBytes: 8 } })
    await put('a.txt', 'nine byte')
    const edit = fs.editText(await fs.resolve('a.txt'), { oldString: 'nine', newString: '9' })
    await expect(edit).rejects.toEqual(fsError('FS_TOO_LARGE'))
    expect(editor.writes).toEqual([])
  })
})

describe('new files', () => {
  it('creates an absent file through one editor write under createIfAbsent', async () => {
    const editor = new MemoryEditor()
    const { fs, path, disk } = await setup({ clientOf: () => editor })
    const target = await fs.resolve('sub/new.txt')
    const outcome = await fs.writeText(target, 'hello\n', { kind: 'createIfAbsent' })
    expect(outcome).toMatchObject({ operation: 'create', previousText: null })
    expect(editor.writes).toEqual([{ path: path('sub/new.txt'), content: 'hello\n' }])
    expect(await disk('sub/new.txt')).toBe('hello\n')
    expect((await fs.stat(target))?.version).toBe(outcome.version)
  })

  it('refuses a new file below a file without asking the editor', async () => {
    const editor = new MemoryEditor()
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'keep')
    const write = fs.writeText(await fs.resolve('a.txt/deeper/b.txt'), 'x')
    await expect(write).rejects.toEqual(fsError('FS_NOT_FOUND'))
    expect(editor.writes).toEqual([])
  })

  it('writes text the editor would not serve to disk, with the version stat reports', async () => {
    const editor = new MemoryEditor()
    const { fs, put, disk } = await setup({ clientOf: () => editor, maxEditorBytes: 16 })
    await put('a.txt', 'small')
    const target = await fs.resolve('a.txt')
    const outcome = await fs.writeText(target, 'over sixteen bytes')
    expect(editor.writes).toEqual([])
    expect(await disk('a.txt')).toBe('over sixteen bytes')
    expect(await fs.stat(target)).toMatchObject({ version: outcome.version, source: 'disk' })
  })
})

describe('an editor that can only read', () => {
  it('reads the buffer, lands the edit on disk and keeps content versions', async () => {
    const editor = new MemoryEditor({ canWrite: false })
    const { fs, path, put, disk } = await setup({ clientOf: () => editor })
    await put('a.txt', 'saved\n')
    editor.type(path('a.txt'), 'typed\n')
    const target = await fs.resolve('a.txt')
    expect(await fs.readText(target)).toBe('typed\n')
    const outcome = await fs.editText(target, { oldString: 'typed', newString: 'edited' })
    expect(editor.writes).toEqual([])
    expect(await disk('a.txt')).toBe('edited\n')
    expect(outcome.version).toMatch(/^editor:/)
    editor.revert(path('a.txt'))
    expect(await fs.stat(target)).toMatchObject({ version: outcome.version, source: 'editor' })
  })
})

describe('serialisation', () => {
  it('runs a second edit of one target only after the first was written', async () => {
    const editor = new MemoryEditor({ saves: false, delayMs: 5 })
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'a b')
    const target = await fs.resolve('a.txt')
    const [first, second] = await Promise.all([
      fs.editText(target, { oldString: 'a', newString: 'A' }),
      fs.editText(target, { oldString: 'b', newString: 'B' }),
    ])
    expect(editor.requests.map((request) => request.method)).toEqual([
      'read',
      'write',
      'read',
      'write',
    ])
    expect(editor.writes.map((write) => write.content)).toEqual(['A b', 'A B'])
    expect(second.version).not.toBe(first.version)
    expect(await fs.readText(await fs.resolve(path('a.txt')))).toBe('A B')
  })

  it('refuses the second of two concurrent edits guarded by one version as stale', async () => {
    const editor = new MemoryEditor({ saves: false, delayMs: 5 })
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'a b')
    const target = await fs.resolve('a.txt')
    const version = (await fs.stat(target))!.version
    const [won, lost] = await Promise.allSettled([
      fs.editText(target, { oldString: 'a', newString: 'A' }, { version }),
      fs.editText(target, { oldString: 'b', newString: 'B' }, { version }),
    ])
    expect(won.status).toBe('fulfilled')
    expect(lost.status === 'rejected' && isFsError(lost.reason, 'FS_STALE_VERSION')).toBe(true)
    expect(editor.writes.map((write) => write.content)).toEqual(['A b'])
  })
})

describe('where the editor writes', () => {
  it('refuses with FS_PATH_CHANGED an edit whose directory became a link after the judging, asking the editor nothing', async () => {
    const editor = new MemoryEditor({ saves: true })
    const { fs, path, put, root } = await setup({ clientOf: () => editor })
    await put('sub/a.txt', 'one\n')
    // The same text outside: the editor's version (a hash of the text) is the one read.
    await put('../outside-of-' + basename(root) + '/a.txt', 'one\n')
    const outside = join(dirname(root), `outside-of-${basename(root)}`)
    try {
      const call = {}
      await fs.realPath('sub/a.txt', { call, change: true })
      const target = await fs.resolve('sub/a.txt', { call, change: true })
      const version = (await fs.stat(target))!.version
      await rename(path('sub'), path('sub.moved'))
      await symlink(outside, path('sub'))
      const edit = fs.editText(target, { oldString: 'one', newString: 'two' }, { version })
      await expect(edit).rejects.toEqual(fsError('FS_PATH_CHANGED'))
      expect(editor.writes).toEqual([])
      expect(await readFile(join(outside, 'a.txt'), 'utf8')).toBe('one\n')
    } finally {
      await rm(outside, { recursive: true, force: true })
    }
  })
})
