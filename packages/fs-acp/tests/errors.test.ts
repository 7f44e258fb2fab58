import { afterEach, describe, expect, it, vi } from 'vitest'
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
  afterEach(() => {
    vi.useRealTimers()
  })

  it('falls back to the disk when a read is not answered in time, says so once, and never waits again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let arrived = () => {}
    const reached = new Promise<void>((resolve) => (arrived = resolve))
    const { fs, path, put, editor, target } = await troubled('read', () => {
      arrived()
      return never()
    })
    await put('b.txt', 'bee\n')
    const first = fs.readText(target)
    await reached
    await vi.advanceTimersByTimeAsync(30_000)
    expect(await first).toBe('text\n')
    expect(editor.notices).toEqual([
      expect.objectContaining({
        severity: 'warning',
        title: expect.stringContaining('did not answer a file read within 30 s'),
        description: expect.stringContaining(`The read of ${path('a.txt')} went unanswered.`),
      }),
    ])
    // Later reads (and stats) of the session are the disk's at once: no timer needed.
    const other = await fs.resolve('b.txt')
    expect(await fs.stat(other)).toMatchObject({ source: 'disk' })
    expect(await fs.readText(other)).toBe('bee\n')
    expect(await fs.readText(await fs.resolve('a.txt'))).toBe('text\n')
    expect(editor.reads).toBe(1)
    expect(editor.notices).toHaveLength(1)
  })

  it('waits for an editor that answers a write after 40 s, and the change lands', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let answer = () => {}
    const { fs, disk, editor } = await troubled(
      'write',
      () => new Promise<void>((resolve) => (answer = resolve)),
    )
    const call = { callId: 'c1' }
    const target = await fs.resolve('a.txt', { call })
    let settled = false
    const write = fs.writeText(target, 'new\n').finally(() => (settled = true))
    await vi.waitFor(() => expect(editor.writes).toHaveLength(1))
    await vi.advanceTimersByTimeAsync(40_000)
    expect(settled).toBe(false)
    expect(editor.waits).toEqual([
      { call, text: 'with the editor: waiting for it to apply the change' },
    ])
    answer()
    expect((await write).operation).toBe('update')
    expect(await disk('a.txt')).toBe('new\n')
  })

  it('stops waiting for a write when the call is cancelled, saying it may still land', async () => {
    const { fs, target } = await troubled('write', never)
    const controller = new AbortController()
    const write = fs.writeText(target, 'new', undefined, controller.signal)
    await Promise.resolve()
    setTimeout(() => controller.abort(), 10)
    await expect(write).rejects.toEqual(fsError('FS_ABORTED', 'it may still land'))
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
