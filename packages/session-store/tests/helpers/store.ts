// A FileSessionStore on a fresh mkdtemp directory per test (removed when the test ends), the
// warnings it reported, and headers and events to store.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StoredSessionEvent, StoredSessionHeader } from '@deepseek-ai/dsh-agent'
import { onTestFinished } from 'vitest'
import { FileSessionStore } from '../../src/index'

export interface TempStore {
  /** The directory the store was given (it does not exist until the first write). */
  dir: string
  store: FileSessionStore
  warnings: string[]
}

export async function tempStore(): Promise<TempStore> {
  const parent = await mkdtemp(join(tmpdir(), 'dsh-sessions-'))
  onTestFinished(() => rm(parent, { recursive: true, force: true }))
  const dir = join(parent, 'sessions')
  const warnings: string[] = []
  const store = new FileSessionStore({ dir, warn: (message) => warnings.push(message) })
  return { dir, store, warnings }
}

export function sessionHeader(
  id: string,
  fields: Partial<StoredSessionHeader> = {},
): StoredSessionHeader {
  return {
    id,
    cwd: '/work/project',
    roots: ['/work/project'],
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-02T03:04:05.000Z',
    ...fields,
  }
}

/** One event of every type the agent logs, as one turn. */
export function everyEvent(turnId: string): StoredSessionEvent[] {
  return [
    { type: 'session/mode', mode: 'ask' },
    { type: 'turn/start', turnId },
    { type: 'user/message', turnId, text: 'fix the test\nplease ✓' },
    { type: 'assistant/chunk', turnId, kind: 'reasoning', text: 'look first' },
    { type: 'assistant/chunk', turnId, kind: 'text', text: 'Reading it.' },
    {
      type: 'tool/call',
      turnId,
      callId: 'c1',
      name: 'write',
      arguments: { path: 'a.ts', content: 'x' },
      presentation: {
        title: 'Write a.ts',
        kind: 'edit',
        locations: [{ path: '/work/project/a.ts' }],
      },
    },
    {
      type: 'tool/asked',
      turnId,
      callId: 'c1',
      preview: [{ type: 'diff', path: '/work/project/a.ts', oldText: null, newText: 'x' }],
    },
    { type: 'tool/started', turnId, callId: 'c1' },
    {
      type: 'tool/result',
      turnId,
      callId: 'c1',
      name: 'write',
      content: [{ type: 'text', text: 'wrote a.ts' }],
      isError: false,
      presentation: { title: 'Wrote a.ts' },
    },
    {
      type: 'tool/result',
      turnId,
      callId: 'c2',
      name: 'read',
      content: [{ type: 'text', text: 'no such file' }],
      isError: true,
      error: { name: 'FsError', code: 'FS_NOT_FOUND' },
    },
    {
      type: 'context/usage',
      turnId,
      used: 1200,
      size: 131_072,
      cost: { amount: 0.0004, currency: 'USD' },
    },
    { type: 'context/compacting', turnId, compactionId: 'k1', trigger: 'auto' },
    {
      type: 'context/compacted',
      turnId,
      compactionId: 'k1',
      trigger: 'auto',
      replaced: [
        {
          callId: 'c1',
          content: '[write of a.ts (1 lines) elided to save context; run it again if needed]',
        },
      ],
      elided: 1,
      summary: { text: '- wrote a.ts', opening: 'fix the test\n\n- wrote a.ts', keep: 2 },
      before: 1200,
      after: 300,
    },
    { type: 'session/model', model: 'deepseek-reasoner' },
    { type: 'turn/end', turnId, reason: 'error', error: 'the model failed' },
  ]
}
