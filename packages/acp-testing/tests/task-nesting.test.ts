// Who may delegate, over the bridge: a delegate may start a task of its own, whose delegate may
// not (its task call is refused with TASK_NOT_ALLOWED and it goes on); each report reaches the
// one that asked; every delegate's cards name the card of the task that started it. The
// scripted model hands out the turns in order (parent, delegate, its delegate). Every frame
// schema-valid.
import { describe, expect, it } from 'vitest'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const task = (id: string, prompt: string) => ({
  id,
  name: 'task',
  arguments: { description: prompt.toLowerCase().slice(0, -1), prompt },
})

describe('nested delegates', () => {
  it("a delegate may delegate once more; its delegate's task call is refused", async () => {
    const harness = await makeHarness({
      withTask: true,
      mode: 'full-access',
      script: {
        turns: [
          { toolCalls: [task('t1', 'Plan the work.')] },
          { toolCalls: [task('t2', 'Split the work.')] },
          { toolCalls: [task('t3', 'Split it again.')] },
          { text: 'I could not delegate; I split it myself.' },
          { text: 'Split, by my delegate.' },
          { text: 'Planned.' },
        ],
      },
    })
    const sessionId = await harness.newSession()
    expect((await harness.prompt(sessionId, 'plan')).stopReason).toBe('end_turn')
    const updates = harness.updatesOf(sessionId)
    const ends = new Map<string, { status: string; text: string; parent: unknown }>()
    for (const u of updates) {
      if (u.sessionUpdate !== 'tool_call_update' || u.status === undefined || u.status === null) {
        continue
      }
      const text = (u.content ?? [])
        .map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''))
        .join('|')
      const parent = (u._meta as { dsh?: { parentToolCallId?: string } } | undefined)?.dsh
        ?.parentToolCallId
      ends.set(u.toolCallId.replace(/[0-9a-f-]{36}\//g, '*/'), { status: u.status, text, parent })
    }
    // The delegate's delegate could not start a task: refused, and it went on.
    const refused = ends.get('*/t3')
    expect(refused).toMatchObject({ status: 'failed' })
    expect(refused!.text).toContain('A delegate of a delegate cannot start tasks')
    expect(refused!.parent).toMatch(/^[0-9a-f-]{36}\/t2$/)
    // The delegate's task ran and brought its delegate's report back; the parent's too.
    expect(ends.get('*/t2')).toMatchObject({ status: 'completed', parent: 't1' })
    expect(ends.get('*/t2')!.text).toBe(
      '✗ Task: split it again\n\nI could not delegate; I split it myself.',
    )
    expect(ends.get('t1')).toMatchObject({ status: 'completed' })
    expect(ends.get('t1')!.text).toMatch(/✓ Task: split the work\n\nSplit, by my delegate\.$/)
  })
})
