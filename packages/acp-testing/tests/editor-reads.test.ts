// How many times the agent reads a file through the editor, over the real SDK client whose
// editor counts its fs/read_text_file requests and records their `line`/`limit`: a ranged
// read sends the range (its first one checked once against a whole read), an edit nobody was
// asked about reads once, an asked edit reads again after the answer and is refused when the
// buffer changed while the person was asked — also outside the lines the model read — and a
// write after reading only some lines is refused, telling the model to read the whole file.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ReadTextFileRequest } from '@agentclientprotocol/sdk'
import type { SessionEvent } from '@deepseek-ai/dsh-agent'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { choose } from '../src/client'
import type { AcpHarness } from '../src/harness'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

type Call = { id: string; name: string; arguments: Record<string, unknown> }
const script = (...calls: Call[]) => ({
  turns: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }],
})
const read = (id: string, range: { offset?: number; limit?: number } = {}): Call => ({
  id,
  name: 'read',
  arguments: { file_path: 'a.ts', ...range },
})
const edit = (id: string, old_string: string, new_string: string): Call => ({
  id,
  name: 'edit',
  arguments: { file_path: 'a.ts', old_string, new_string },
})
const FILE = 'one\ntwo\nthree\nfour\nfive\n'

function resultOf(harness: AcpHarness, sessionId: string, callId: string) {
  const events = harness.ctx.agents.get(sessionId)?.session.events ?? []
  return events.find(
    (event): event is Extract<SessionEvent, { type: 'tool/result' }> =>
      event.type === 'tool/result' && event.callId === callId,
  )
}

/** The reads the editor served, as `line`/`limit`. */
function readsOf(harness: AcpHarness) {
  return harness.editor!.reads.map((request: ReadTextFileRequest) => ({
    line: request.line,
    limit: request.limit,
  }))
}
const WHOLE = { line: undefined, limit: undefined }

interface Typing {
  buffers?: Map<string, string>
  path: string
  text: string
}

/** A tool the scripted model calls to make the person type `text` into the buffer of `path`. */
function typingTool(typing: Typing) {
  return (ctx: Context) => {
    ctx.tools.register(
      defineTool({
        name: 'person_types',
        description: 'Test only: the person types in the editor.',
        input: z.object({}),
        execute: async () => {
          typing.buffers?.set(typing.path, typing.text)
          return 'typed'
        },
      }),
    )
  }
}

describe('ranged reads', () => {
  it('send line and limit; the first is checked once against the whole buffer', async () => {
    const harness = await makeHarness({
      withFs: true,
      editor: {},
      script: script(read('r1', { offset: 2, limit: 2 }), read('r2', { offset: 4, limit: 1 })),
    })
    await writeFile(join(harness.workspace, 'a.ts'), FILE)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'read parts')
    expect(readsOf(harness)).toEqual([{ line: 2, limit: 3 }, WHOLE, { line: 4, limit: 2 }])
    expect(resultOf(harness, sessionId, 'r1')?.content[0]?.text).toContain(
      '2: two\n3: three\n\n(Showing lines 2-3 of 5. Use offset=4 to continue.)',
    )
    expect(resultOf(harness, sessionId, 'r2')?.content[0]?.text).toContain(
      '4: four\n\n(Showing lines 4-4. Use offset=5 to continue.)',
    )
    expect(resultOf(harness, sessionId, 'r2')?.details).toMatchObject({ source: 'editor' })
  })

  it('an offset past the end, which the editor refuses, is told with the line count from a whole read', async () => {
    const harness = await makeHarness({
      withFs: true,
      editor: {},
      script: script(read('r1', { offset: 40 })),
    })
    await writeFile(join(harness.workspace, 'a.ts'), FILE)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'read far')
    expect(readsOf(harness)).toEqual([{ line: 40, limit: 2001 }, WHOLE])
    const result = resultOf(harness, sessionId, 'r1')
    expect(result?.error?.code).toBe('FS_OFFSET_PAST_END')
    expect(result?.content[0]?.text).toContain('which has 5 lines')
  })

  it('a whole read sends neither line nor limit', async () => {
    const harness = await makeHarness({ withFs: true, editor: {}, script: script(read('r1')) })
    await writeFile(join(harness.workspace, 'a.ts'), FILE)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'read it')
    expect(readsOf(harness)).toEqual([WHOLE])
  })

  it('a write after reading only some lines is refused, telling the model to read the whole file', async () => {
    const harness = await makeHarness({
      withFs: true,
      mode: 'full-access',
      editor: {},
      script: script(read('r1', { offset: 1, limit: 1 }), read('r2', { offset: 2, limit: 1 }), {
        id: 'w1',
        name: 'write',
        arguments: { file_path: 'a.ts', content: 'new\n' },
      }),
    })
    await writeFile(join(harness.workspace, 'a.ts'), FILE)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'rewrite it')
    const result = resultOf(harness, sessionId, 'w1')
    expect(result?.error?.code).toBe('FS_NOT_OBSERVED')
    expect(result?.content[0]?.text).toContain('Read the whole file first (read without offset')
    expect(harness.editor?.writes).toEqual([])
  })
})

describe('reads per edit', () => {
  it('an edit nobody was asked about reads the buffer once', async () => {
    const harness = await makeHarness({
      withFs: true,
      mode: 'auto-edit',
      editor: {},
      script: script(read('r1'), edit('e1', 'two', 'TWO')),
    })
    await writeFile(join(harness.workspace, 'a.ts'), FILE)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit it')
    expect(resultOf(harness, sessionId, 'e1')?.isError).toBe(false)
    // One read for the read, one for the edit.
    expect(readsOf(harness)).toEqual([WHOLE, WHOLE])
    expect(harness.permissionRequests).toEqual([])
  })

  it('an edit after a ranged read lands when the person typed only outside the lines read', async () => {
    const typing: Typing = { path: '', text: 'ONE typed\ntwo\nthree\nfour\nfive\nsix typed\n' }
    const harness = await makeHarness({
      withFs: true,
      mode: 'full-access',
      editor: {},
      setup: typingTool(typing),
      script: script(
        read('r1', { offset: 4, limit: 1 }),
        read('r2', { offset: 2, limit: 2 }),
        { id: 't1', name: 'person_types', arguments: {} },
        edit('e1', 'three', '3'),
      ),
    })
    typing.buffers = harness.editor?.buffers
    typing.path = join(harness.workspace, 'a.ts')
    await writeFile(typing.path, FILE)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit it')
    expect(resultOf(harness, sessionId, 'e1')?.isError).toBe(false)
    expect(harness.editor?.writes.map((write) => write.content)).toEqual([
      'ONE typed\ntwo\n3\nfour\nfive\nsix typed\n',
    ])
  })

  it('an asked edit reads again after the answer and is refused when the buffer changed meanwhile outside the lines read', async () => {
    const harness = await makeHarness({
      withFs: true,
      editor: {},
      script: script(
        read('r1', { offset: 4, limit: 1 }),
        read('r2', { offset: 2, limit: 2 }),
        edit('e1', 'three', '3'),
      ),
    })
    const file = join(harness.workspace, 'a.ts')
    await writeFile(file, FILE)
    harness.answerWith((request) => {
      harness.editor?.buffers.set(file, `${FILE}six typed while asked\n`)
      return choose('allow_once')(request)
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit it')
    const result = resultOf(harness, sessionId, 'e1')
    expect(result?.error?.code).toBe('FS_STALE_VERSION')
    expect(result?.content[0]?.text).toContain('Read it again')
    // The reads, a ranged one checked against the whole buffer; the preview's; the edit's.
    expect(readsOf(harness)).toEqual([
      { line: 4, limit: 2 },
      WHOLE,
      { line: 2, limit: 3 },
      WHOLE,
      WHOLE,
    ])
    expect(harness.permissionRequests).toHaveLength(1)
    expect(harness.editor?.writes).toEqual([])
  })

  it('an asked edit of an unchanged buffer reads it twice and lands', async () => {
    const harness = await makeHarness({
      withFs: true,
      editor: {},
      script: script(read('r1', { offset: 4, limit: 1 }), edit('e1', 'three', '3')),
    })
    await writeFile(join(harness.workspace, 'a.ts'), FILE)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit it')
    expect(resultOf(harness, sessionId, 'e1')?.isError).toBe(false)
    expect(readsOf(harness)).toEqual([{ line: 4, limit: 2 }, WHOLE, WHOLE, WHOLE])
    expect(harness.editor?.writes.map((write) => write.content)).toEqual([
      'one\ntwo\n3\nfour\nfive\n',
    ])
  })
})
