import { describe, expect, it } from 'vitest'
import { MemoryEditor } from './helpers/editor'
import { collect, fsError, useSetup } from './helpers/setup'
import type { FsSession } from '@deepseek-ai/dsh-fs'

/** A caller's session, as the file tools pass theirs. */
function sessionOf(id: string): FsSession {
  return { header: { id, cwd: '/' } }
}

const setup = useSetup()

const BOM = '\uFEFF'

describe('reads through the editor', () => {
  it('shows an unsaved buffer that differs from the disk, with source editor', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'saved\n')
    editor.type(path('a.txt'), 'typed, not saved\n')
    const target = await fs.resolve('a.txt')
    const info = await fs.stat(target)
    expect(info).toMatchObject({ type: 'file', size: 17, source: 'editor' })
    expect(info?.version).toMatch(/^editor:[0-9a-f]{64}$/)
    expect(await fs.readText(target)).toBe('typed, not saved\n')
    expect((await collect(fs.streamText(target))).join('')).toBe('typed, not saved\n')
  })

  it('hands the text a stat got to the next read of that target, once', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'one')
    const target = await fs.resolve('a.txt')
    await fs.stat(target)
    editor.type(path('a.txt'), 'two')
    expect(await fs.readText(target)).toBe('one')
    expect(editor.reads).toBe(1)
    expect(await fs.readText(target)).toBe('two')
    expect(editor.reads).toBe(2)
  })

  it('keeps the same version for the same text and a new one for new text', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'same')
    const target = await fs.resolve('a.txt')
    const first = (await fs.stat(target))?.version
    editor.type(path('a.txt'), 'changed')
    const second = (await fs.stat(target))?.version
    editor.revert(path('a.txt'))
    expect(second).not.toBe(first)
    expect((await fs.stat(target))?.version).toBe(first)
  })

  it('streams the bytes of a BOM buffer with the BOM, from a byte offset', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'x')
    editor.type(path('a.txt'), `${BOM}héllo`)
    const target = await fs.resolve('a.txt')
    const whole = Buffer.concat(await collect(fs.streamBytes(target)))
    expect([...whole.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(whole.subarray(3).toString('utf8')).toBe('héllo')
    const tail = Buffer.concat(await collect(fs.streamBytes(target, { start: 6 })))
    expect(tail.toString('utf8')).toBe('llo')
    expect(await fs.readText(target)).toBe('héllo')
    expect((await fs.stat(target))?.size).toBe(9)
  })

  it('refuses a byte stream whose version guard the buffer has moved past', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'abc')
    const target = await fs.resolve('a.txt')
    const version = (await fs.stat(target))!.version
    editor.type(path('a.txt'), 'abd')
    const stream = collect(fs.streamBytes(target, { version }))
    await expect(stream).rejects.toEqual(fsError('FS_STALE_VERSION'))
  })

  it('rejects a buffer holding a NUL character as FS_NOT_TEXT', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'clean')
    editor.type(path('a.txt'), 'a\0b')
    await expect(fs.readText(await fs.resolve('a.txt'))).rejects.toEqual(fsError('FS_NOT_TEXT'))
  })
})

describe('what the disk serves', () => {
  it('serves a file over maxEditorBytes from disk without asking the editor', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put } = await setup({ clientOf: () => editor, maxEditorBytes: 16 })
    await put('big.txt', 'seventeen bytes!\n')
    editor.type(path('big.txt'), 'buffer')
    const target = await fs.resolve('big.txt')
    expect((await fs.stat(target))?.source).toBe('disk')
    expect(await fs.readText(target)).toBe('seventeen bytes!\n')
    expect(editor.reads).toBe(0)
  })

  it('serves a binary file from disk with the disk errors', async () => {
    const editor = new MemoryEditor()
    const { fs, path, put } = await setup({ clientOf: () => editor })
    await put('nul.bin', Uint8Array.of(0x61, 0x00, 0x62))
    await put('latin1.txt', Uint8Array.of(0x63, 0x61, 0x66, 0xe9))
    editor.type(path('nul.bin'), 'ab')
    const binary = await fs.resolve('nul.bin')
    expect((await fs.stat(binary))?.source).toBe('disk')
    await expect(fs.readText(binary)).rejects.toEqual(fsError('FS_NOT_TEXT'))
    await expect(fs.readText(await fs.resolve('latin1.txt'))).rejects.toEqual(
      fsError('FS_NOT_TEXT'),
    )
    expect(editor.reads).toBe(0)
  })

  it('answers a missing file and a directory from disk, without asking the editor', async () => {
    const editor = new MemoryEditor()
    const { fs, path } = await setup({ clientOf: () => editor })
    editor.type(path('ghost.txt'), 'only in the editor')
    expect(await fs.stat(await fs.resolve('ghost.txt'))).toBeUndefined()
    await expect(fs.readText(await fs.resolve('ghost.txt'))).rejects.toEqual(
      fsError('FS_NOT_FOUND'),
    )
    expect((await fs.stat(await fs.resolve('.')))?.type).toBe('directory')
    expect(editor.reads).toBe(0)
  })

  it('is the disk when no clientOf is configured', async () => {
    const { fs, put } = await setup()
    await put('a.txt', 'disk')
    const target = await fs.resolve('a.txt', { session: sessionOf('any') })
    expect((await fs.stat(target))?.source).toBe('disk')
    expect(await fs.readText(target)).toBe('disk')
  })

  it('is the disk for a session clientOf has no editor for', async () => {
    const editor = new MemoryEditor()
    const sessions: (string | undefined)[] = []
    const clientOf = (session: FsSession | undefined) => {
      sessions.push(session?.header.id)
      return session?.header.id === 'editor' ? editor : undefined
    }
    const { fs, path, put } = await setup({ clientOf })
    await put('a.txt', 'disk')
    editor.type(path('a.txt'), 'buffer')
    const other = await fs.resolve('a.txt', { session: sessionOf('headless') })
    const none = await fs.resolve('a.txt')
    expect((await fs.stat(other))?.source).toBe('disk')
    expect(await fs.readText(none)).toBe('disk')
    await fs.editText(other, { oldString: 'disk', newString: 'DISK' })
    expect(sessions).toEqual(['headless', undefined])
    expect(editor.requests).toEqual([])
  })
})

describe('sessions', () => {
  it('routes two sessions to their own editors without crossing', async () => {
    const left = new MemoryEditor({ saves: false })
    const right = new MemoryEditor({ saves: false })
    const clientOf = (session: FsSession | undefined) =>
      session?.header.id === 'left' ? left : session?.header.id === 'right' ? right : undefined
    const { fs, path, put } = await setup({ clientOf })
    await put('a.txt', 'disk\n')
    left.type(path('a.txt'), 'left buffer\n')
    right.type(path('a.txt'), 'right buffer\n')
    const fromLeft = await fs.resolve('a.txt', { session: sessionOf('left') })
    const fromRight = await fs.resolve('a.txt', { session: sessionOf('right') })
    expect(await fs.readText(fromLeft)).toBe('left buffer\n')
    expect(await fs.readText(fromRight)).toBe('right buffer\n')
    await fs.editText(fromLeft, { oldString: 'left', newString: 'LEFT' })
    expect(left.writes).toEqual([{ path: path('a.txt'), content: 'LEFT buffer\n' }])
    expect(right.writes).toEqual([])
    expect(await fs.readText(fromRight)).toBe('right buffer\n')
  })
})
