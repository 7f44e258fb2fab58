// A background task's card over the bridge grows as a waited one does: after the call returned
// the task's id, each of the delegate's calls shows on it while the delegate works, then its
// report. A `gate` tool holds the delegate (and the parent) until the test sees what it waits
// for, so "while it works" is checked, not assumed. Every frame schema-valid.
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

/** The text of a card update's content, joined. */
function contentText(update: SessionUpdate): string {
  if (update.sessionUpdate !== 'tool_call_update' && update.sessionUpdate !== 'tool_call') return ''
  return (update.content ?? [])
    .map((block) =>
      block.type === 'content' && block.content.type === 'text' ? block.content.text : '',
    )
    .join('')
}

describe("a background task's card", () => {
  it("shows the delegate's calls while it works after the call returned, then its report", async () => {
    const conditions: Record<string, () => boolean> = {}
    const gateTool = (ctx: Context) => {
      ctx.tools.register(
        defineTool({
          name: 'gate',
          description: 'Waits for the test.',
          input: z.object({ until: z.string() }),
          execute: async (args) => {
            await vi.waitFor(() => expect(conditions[args.until]!()).toBe(true), {
              timeout: 20_000,
            })
            return 'open'
          },
          presentCall: (args) => ({ title: `Wait for ${args.until}`, kind: 'other' }),
          access: () => ({ effect: 'none' }),
        }),
      )
    }
    const harness = await makeHarness({
      withTask: true,
      mode: 'full-access',
      setup: gateTool,
      script: {
        turns: [
          {
            toolCalls: [
              {
                id: 't1',
                name: 'task',
                arguments: { description: 'find x', prompt: 'Find x.', run_in_background: true },
              },
              { id: 'g1', name: 'gate', arguments: { until: 'child-ended' } },
            ],
          },
          { toolCalls: [{ id: 'c1', name: 'gate', arguments: { until: 'card-grew' } }] },
          { text: 'x is in x.ts.' },
          { text: 'Done.' },
        ],
      },
    })
    const sessionId = await harness.newSession()
    const parent = harness.ctx.agents.get(sessionId) as Agent
    let childEnded = false
    parent.onChild((child) =>
      child.subscribe((event) => {
        if (event.type === 'turn/end') childEnded = true
      }),
    )
    const taskUpdates = () =>
      harness
        .updatesOf(sessionId)
        .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't1')
    // The delegate waits until its running call shows on the task card.
    conditions['card-grew'] = () =>
      taskUpdates().some((u) => contentText(u) === '… Wait for card-grew')
    conditions['child-ended'] = () => childEnded

    expect((await harness.prompt(sessionId, 'go')).stopReason).toBe('end_turn')
    const updates = taskUpdates()
    const returned = updates.findIndex(
      (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed',
    )
    expect(contentText(updates[returned]!)).toContain('Started background task task-t1')
    // After the call returned: the delegate's call running, ended, then the report.
    expect(updates.slice(returned + 1).map(contentText)).toEqual([
      '… Wait for card-grew',
      '✓ Wait for card-grew',
      '✓ Wait for card-grew\n\nx is in x.ts.',
    ])
  })
})
