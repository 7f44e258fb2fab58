// The task tool over the bridge: a delegate's write in `ask` is asked on the parent's ACP
// session (about the delegate's own card, shown there too) and lands when allowed; the task's
// card closes with the delegate's calls and its report. Every frame schema-valid.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useAcpHarness } from './helpers/harness'
import { noteTaskScript } from './helpers/task-scripts'

const makeHarness = useAcpHarness()

describe('a task over the bridge', () => {
  it("asks the delegate's write on the parent session and shows the delegate's card there", async () => {
    const harness = await makeHarness({
      withFs: true,
      withTask: true,
      script: noteTaskScript,
    })
    const sessionId = await harness.newSession()
    expect((await harness.prompt(sessionId, 'delegate it')).stopReason).toBe('end_turn')
    expect(await readFile(join(harness.workspace, 'note.txt'), 'utf8')).toBe('hi\n')
    expect(harness.permissionRequests).toHaveLength(1)
    const [request] = harness.permissionRequests
    expect(request!.sessionId).toBe(sessionId)
    expect(request!.toolCall.toolCallId).toMatch(/^[0-9a-f-]{36}\/w1$/)
    const updates = harness.updatesOf(sessionId)
    const opened = updates.flatMap((update) =>
      update.sessionUpdate === 'tool_call' ? [`${update.toolCallId} ${update.title}`] : [],
    )
    expect(opened).toEqual([
      't1 Task: write a note',
      `${request!.toolCall.toolCallId} Write note.txt`,
    ])
    const closed = updates.find(
      (update) =>
        update.sessionUpdate === 'tool_call_update' &&
        update.toolCallId === 't1' &&
        update.status === 'completed',
    )
    expect(JSON.stringify(closed)).toContain('Wrote note.txt.')
  })

  it("grows the task card with the delegate's calls before it ends; the delegate's cards name it", async () => {
    const harness = await makeHarness({
      withFs: true,
      withTask: true,
      mode: 'full-access',
      script: {
        turns: [
          {
            toolCalls: [
              {
                id: 't1',
                name: 'task',
                arguments: { description: 'look', prompt: 'Read a.txt, then b.txt.' },
              },
            ],
          },
          { toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'a.txt' } }] },
          { toolCalls: [{ id: 'r2', name: 'read', arguments: { file_path: 'missing.txt' } }] },
          { text: 'a.txt says a.' },
          { text: 'Done.' },
        ],
      },
    })
    await writeFile(join(harness.workspace, 'a.txt'), 'a\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'delegate it')
    const updates = harness.updatesOf(sessionId)
    const taskTexts = updates.flatMap((update) =>
      update.sessionUpdate === 'tool_call_update' && update.toolCallId === 't1'
        ? [
            `${update.status ?? '-'}: ${(update.content ?? [])
              .map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''))
              .join('|')}`,
          ]
        : [],
    )
    expect(taskTexts).toEqual([
      '-: … Read a.txt',
      '-: ✓ Read a.txt',
      '-: ✓ Read a.txt\n… Read missing.txt',
      '-: ✓ Read a.txt\n✗ Read missing.txt',
      'completed: ✓ Read a.txt\n✗ Read missing.txt\n\na.txt says a.',
    ])
    // The delegate's cards went out while the task card was open, each naming it.
    const childCards = updates.filter(
      (update) =>
        (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
        update.toolCallId.includes('/'),
    )
    expect(childCards.length).toBeGreaterThanOrEqual(4)
    for (const card of childCards) {
      expect(card._meta).toEqual({ dsh: { parentToolCallId: 't1' } })
    }
    const lastChild = updates.lastIndexOf(childCards.at(-1)!)
    const taskEnd = updates.findIndex(
      (u) =>
        u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't1' && u.status === 'completed',
    )
    expect(lastChild).toBeLessThan(taskEnd)
  })
})
