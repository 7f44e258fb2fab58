// The channels an ACP session's agent is created with: before the session's record joins them
// a question fails in words (the turn goes on) and a notice goes nowhere; once joined, each
// channel answers through the record, even taken off the object; `written` follows the
// latest update handed on.
import { describe, expect, it } from 'vitest'
import type { ToolNotice, ToolPermissionRequest } from '@deepseek-ai/dsh-tools'
import { testExecution } from '@deepseek-ai/dsh-tools/testing'
import { AcpSessionChannels } from '../src/sessions/session-channels'

const request: ToolPermissionRequest = {
  exec: testExecution('write', { file_path: 'a.txt' }),
  presentation: { title: 'Write a.txt' },
  preview: [],
  options: [{ optionId: 'allow_once', kind: 'allow_once', name: 'Allow' }],
}

describe('the session channels', () => {
  it('a question before the record joins fails with a reason, and a notice is dropped', async () => {
    const channels = new AcpSessionChannels()
    await expect(channels.ask(request)).resolves.toEqual({
      outcome: 'failed',
      reason: 'The ACP session is not open yet.',
    })
    expect(() => channels.notice({ title: 'early' })).not.toThrow()
    expect(channels.files).toBeUndefined()
  })

  it('once joined, each channel answers through the record, even called alone', async () => {
    const channels = new AcpSessionChannels()
    const told: ToolNotice[] = []
    const editorFiles = {
      canRead: true,
      canWrite: false,
      readTextFile: async () => 'text',
      writeTextFile: async () => undefined,
    }
    channels.attach({
      ask: async () => ({ outcome: 'selected', optionId: 'allow_once' }),
      tell: (notice) => void told.push(notice),
      editorFiles,
    })
    const { ask, notice } = channels
    await expect(ask(request)).resolves.toEqual({ outcome: 'selected', optionId: 'allow_once' })
    notice({ title: 'heads up' })
    expect(told).toEqual([{ title: 'heads up' }])
    expect(channels.files).toBe(editorFiles)
  })

  it('written settles once the latest update tracked was written, never rejecting', async () => {
    const channels = new AcpSessionChannels()
    let finish = () => {}
    channels.track(new Promise<void>((resolve) => (finish = resolve)))
    let settled = false
    const written = channels.written().then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    finish()
    await written
    expect(settled).toBe(true)
    channels.track(Promise.reject(new Error('closed')))
    await expect(channels.written()).resolves.toBeUndefined()
  })
})
