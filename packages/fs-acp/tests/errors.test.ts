import { describe, expect, it } from 'vitest'
import { EditorRequestError, MemoryEditor, type EditorRequest } from './helpers/editor'
import { fsError, useSetup } from './helpers/setup'

const setup = useSetup()

/** An editor with `a.txt` on disk whose requests of `method` fail through `answer`. */
async function troubled(
  method: EditorRequest['method'],
  answer: (signal: AbortSignal) => Promise<void>,
  timeoutMs = 30_000,
) {
  const editor = new MemoryEditor()
  const fixture = await setup({ clientOf: () => editor, timeoutMs })
  await fixture.put('a.txt', 'text\n')
  editor.intercept = (request, signal) =>
    request.method === method ? answer(signal) : Promise.resolve()
  return { ...fixture, editor, target: await fixture.fs.resolve('a.txt') }
}

const never = () => new Promise<void>(() => {})
const reject = (code: number, message: string) => () =>
  Promise.reject(new EditorRequestError(code, message))

describe('client errors', () => {
  it('maps -32002 from the editor to FS_NOT_FOUND naming the path', async () => {
    const { fs, path, target } = await troubled('read', reject(-32002, 'Resource not found'))
    await expect(fs.readText(target)).rejects.toEqual(fsError('FS_NOT_FOUND', path('a.txt')))
  })

  it('maps a permission-denied write to FS_PERMISSION_DENIED', async () => {
    const denied = reject(-32603, 'EACCES: permission denied, open')
    const { fs, path, target } = await troubled('write', denied)
    const edit = fs.editText(target, { oldString: 'text', newString: 'T' })
    await expect(edit).rejects.toEqual(fsError('FS_PERMISSION_DENIED', path('a.txt')))
  })

  it('maps any other editor error to FS_IO with the editor message', async () => {
    const { fs, target } = await troubled('read', reject(-32603, 'buffer is being reloaded'))
    const said = 'fs/read_text_file failed with error -32603: buffer is being reloaded'
    await expect(fs.stat(target)).rejects.toEqual(fsError('FS_IO', said))
  })
})

describe('timeouts and cancellation', () => {
  it('gives up on an editor that never answers with FS_IO naming method, path and seconds', async () => {
    const { fs, path, editor, target } = await troubled('read', never, 50)
    const started = Date.now()
    const said = `The editor did not answer fs/read_text_file for ${path('a.txt')} within 0.05 s.`
    await expect(fs.readText(target)).rejects.toEqual(fsError('FS_IO', said))
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
    editor.intercept = undefined
    expect(await fs.readText(target)).toBe('text\n')
  })

  it('names fs/write_text_file when a write is not answered in time, then writes again', async () => {
    const { fs, editor, disk, target } = await troubled('write', never, 50)
    const write = fs.writeText(target, 'new')
    await expect(write).rejects.toEqual(fsError('FS_IO', 'did not answer fs/write_text_file'))
    editor.intercept = undefined
    expect((await fs.writeText(target, 'newer')).operation).toBe('update')
    expect(await disk('a.txt')).toBe('newer')
  })

  it('stops waiting with FS_ABORTED when the caller cancels', async () => {
    const { fs, editor, target } = await troubled('read', never)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 10)
    await expect(fs.readText(target, controller.signal)).rejects.toEqual(fsError('FS_ABORTED'))
    editor.intercept = undefined
    expect(await fs.readText(target)).toBe('text\n')
  })

  it('asks the editor nothing for an already cancelled call', async () => {
    const editor = new MemoryEditor()
    const { fs, put } = await setup({ clientOf: () => editor })
    await put('a.txt', 'text')
    const target = await fs.resolve('a.txt')
    const controller = new AbortController()
    controller.abort()
    await expect(fs.stat(target, controller.signal)).rejects.toEqual(fsError('FS_ABORTED'))
    const edit = fs.editText(
      target,
      { oldString: 't', newString: 'T' },
      undefined,
      controller.signal,
    )
    await expect(edit).rejects.toEqual(fsError('FS_ABORTED'))
    expect(editor.requests).toEqual([])
  })
})
