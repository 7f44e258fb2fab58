// The real fs tools (LocalFileSystem + FsPolicy + ToolFs) through the bridge: what a person's
// editor sees of a read, an edit and a write — the cards, their absolute locations, the diff.
// These sessions want no questions, so they run in the `full-access` mode on purpose; asking
// before a change is permission.test.ts's.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { slowTool, updatesOfKind, useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const original = 'line one\nline two\nline three\nline four\n'

async function seed(workspace: string): Promise<string> {
  await mkdir(join(workspace, 'src'))
  const file = join(workspace, 'src', 'a.txt')
  await writeFile(file, original)
  return file
}

describe('read and edit cards', () => {
  const script = {
    turns: [
      {
        text: 'Reading.',
        toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'src/a.txt', offset: 2 } }],
      },
      {
        toolCalls: [
          {
            id: 'e1',
            name: 'edit',
            arguments: { file_path: 'src/a.txt', old_string: 'line three', new_string: 'line 3' },
          },
        ],
      },
      { text: 'Done.' },
    ],
  }

  it('a read with an offset puts the absolute file and that line on the tool_call', async () => {
    const harness = await makeHarness({ withFs: true, mode: 'full-access', script })
    const file = await seed(harness.workspace)
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'fix line three')).toEqual({ stopReason: 'end_turn' })
    const [read] = updatesOfKind(harness.updatesOf(sessionId), 'tool_call')
    expect(read).toMatchObject({
      toolCallId: 'r1',
      title: 'Read src/a.txt',
      kind: 'read',
      status: 'in_progress',
      rawInput: { file_path: 'src/a.txt', offset: 2 },
      locations: [{ path: file, line: 2 }],
    })
    const readDone = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update').find(
      (update) => update.toolCallId === 'r1',
    )
    expect(readDone?.status).toBe('completed')
    expect(readDone?.locations).toEqual([{ path: file, line: 2 }])
    expect(readDone?.content).toEqual([
      { type: 'content', content: { type: 'text', text: 'Lines 2–4 of 4' } },
      {
        type: 'content',
        content: { type: 'text', text: '```\nline two\nline three\nline four\n```' },
      },
    ])
  })

  it('an edit closes its card with the diff and the changed line', async () => {
    const harness = await makeHarness({ withFs: true, mode: 'full-access', script })
    const file = await seed(harness.workspace)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'fix line three')
    const updates = harness.updatesOf(sessionId)
    const edit = updatesOfKind(updates, 'tool_call').find((call) => call.toolCallId === 'e1')
    expect(edit).toMatchObject({ kind: 'edit', locations: [{ path: file }] })
    const done = updatesOfKind(updates, 'tool_call_update').find((u) => u.toolCallId === 'e1')
    expect(done?.status).toBe('completed')
    expect(done?.locations).toEqual([{ path: file, line: 3 }])
    const diff = done?.content?.find((block) => block.type === 'diff')
    expect(diff).toMatchObject({ type: 'diff', path: file })
    expect(diff && 'oldText' in diff ? diff.oldText : '').toContain('line three')
    expect(diff && 'newText' in diff ? diff.newText : '').toContain('line 3')
    expect(await readFile(file, 'utf8')).toBe('line one\nline two\nline 3\nline four\n')
  })
})

describe('write and failure cards', () => {
  it('a new file shows as a diff from nothing at its absolute path', async () => {
    const harness = await makeHarness({
      withFs: true,
      mode: 'full-access',
      script: {
        turns: [
          {
            toolCalls: [
              {
                id: 'w1',
                name: 'write',
                arguments: { file_path: 'notes/new.md', content: '# New\n' },
              },
            ],
          },
          { text: 'Written.' },
        ],
      },
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'write it')
    const file = join(harness.workspace, 'notes', 'new.md')
    const [call] = updatesOfKind(harness.updatesOf(sessionId), 'tool_call')
    expect(call).toMatchObject({ kind: 'edit', locations: [{ path: file }] })
    const [done] = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update')
    expect(done.status).toBe('completed')
    expect(done.content).toContainEqual({
      type: 'diff',
      path: file,
      oldText: null,
      newText: '# New\n',
    })
    expect(await readFile(file, 'utf8')).toBe('# New\n')
  })

  it('an edit of an unread file fails its card with the reason and leaves the file alone', async () => {
    const harness = await makeHarness({
      withFs: true,
      mode: 'full-access',
      script: {
        turns: [
          {
            toolCalls: [
              {
                id: 'e1',
                name: 'edit',
                arguments: { file_path: 'src/a.txt', old_string: 'one', new_string: '1' },
              },
            ],
          },
          { text: 'Oops.' },
        ],
      },
    })
    const file = await seed(harness.workspace)
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit blind')
    const [done] = updatesOfKind(harness.updatesOf(sessionId), 'tool_call_update')
    expect(done.status).toBe('failed')
    expect(JSON.stringify(done.content)).toMatch(/read/i)
    expect(done.rawOutput).toEqual({ error: { name: 'FsError', code: 'FS_NOT_OBSERVED' } })
    expect(await readFile(file, 'utf8')).toBe(original)
  })
})

describe('disconnect with the real disk', () => {
  it('a client that goes away mid-turn leaves the files as they were and no temporary file', async () => {
    const slow = slowTool()
    const harness = await makeHarness({
      withFs: true,
      setup: slow.register,
      script: {
        turns: [
          { toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'src/a.txt' } }] },
          { toolCalls: [{ id: 's1', name: 'slow', arguments: {} }] },
          {
            toolCalls: [
              { id: 'w1', name: 'write', arguments: { file_path: 'src/a.txt', content: 'gone\n' } },
            ],
          },
        ],
      },
    })
    const file = await seed(harness.workspace)
    const sessionId = await harness.newSession()
    void harness.prompt(sessionId, 'go').catch(() => undefined)
    await slow.started
    await harness.disconnect()
    expect(await readFile(file, 'utf8')).toBe(original)
    expect(await readdir(join(harness.workspace, 'src'))).toEqual(['a.txt'])
    expect(harness.ctx.agents.list()).toEqual([])
  })
})
