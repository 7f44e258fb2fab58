// When a session reaches the disk for good: a new session's files, and its header however often
// it is saved before then (the title at the first message), are written without an fsync, so
// neither `session/new` nor a first prompt waits for the disk; the first `sync()` (a turn's end)
// fsyncs the log, the header and the directory, and a header saved after it is durable at once.
// fsyncSync is watched, not replaced: every call goes to the real disk.
import * as fs from 'node:fs'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { sessionHeader, tempStore } from './helpers/store'

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>()
  return { ...real, fsyncSync: vi.fn(real.fsyncSync) }
})
const fsyncs = vi.mocked(fs.fsyncSync)

beforeEach(() => void fsyncs.mockClear())

describe('durability of a new session', () => {
  it('creating and retitling it fsyncs nothing; its first sync fsyncs the log, the header and the folder', async () => {
    const { dir, store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    writer.append({ type: 'user/message', turnId: 't1', text: 'hello' })
    writer.saveHeader(sessionHeader('s1', { title: 'hello' }))
    expect(fsyncs).not.toHaveBeenCalled()
    expect(JSON.parse(readFileSync(join(dir, 's1.json'), 'utf8')).title).toBe('hello')
    writer.sync()
    expect(fsyncs).toHaveBeenCalledTimes(3)
    fsyncs.mockClear()
    writer.saveHeader(sessionHeader('s1', { title: 'hello', mode: 'plan' }))
    // The temporary file and the folder of the rename.
    expect(fsyncs).toHaveBeenCalledTimes(2)
    fsyncs.mockClear()
    writer.sync()
    expect(fsyncs).toHaveBeenCalledTimes(1)
    writer.close()
  })

  it('closing it unsynced makes it durable as a sync would', async () => {
    const { dir, store } = await tempStore()
    const writer = store.create(sessionHeader('s2'))
    writer.saveHeader(sessionHeader('s2', { title: 'kept' }))
    writer.close()
    // The log, the header, the folder (then the lock's release, which fsyncs nothing here).
    expect(fsyncs.mock.calls.length).toBeGreaterThanOrEqual(3)
    expect(store.open('s2').header.title).toBe('kept')
    expect(readFileSync(join(dir, 's2.json'), 'utf8')).toContain('"title":"kept"')
  })
})
