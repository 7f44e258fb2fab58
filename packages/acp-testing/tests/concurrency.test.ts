import { describe, expect, it } from 'vitest'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import { z } from 'zod'
import { chunkText, updatesOfKind, useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

// A tool that answers with the session it ran for, so a result can be traced to its session.
function registerWhoAmI(ctx: Context) {
  ctx.tools.register(
    defineTool({
      name: 'whoami',
      description: 'Says which session runs it.',
      input: z.object({}),
      execute: async (_args, exec) => `session ${exec.agent?.session.header.id}`,
    }),
  )
}

// The model is shared: whichever session asks next gets the next turn, so turns interleave.
const texts = ['alpha alpha alpha', 'bravo bravo bravo', 'charlie charlie', 'delta delta delta']
const script = {
  turns: [
    { text: texts[0], toolCalls: [{ id: 'w1', name: 'whoami', arguments: {} }] },
    { text: texts[1], toolCalls: [{ id: 'w2', name: 'whoami', arguments: {} }] },
    { text: texts[2] },
    { text: texts[3] },
  ],
}

describe('two sessions on one connection', () => {
  it('prompting concurrently, each session gets only its own updates', async () => {
    const harness = await makeHarness({ delayMs: 2, setup: registerWhoAmI, script })
    const [a, b] = [await harness.newSession(), await harness.newSession()]
    const responses = await Promise.all([harness.prompt(a, 'go a'), harness.prompt(b, 'go b')])
    expect(responses).toEqual([{ stopReason: 'end_turn' }, { stopReason: 'end_turn' }])

    const callIds = new Map<string, string>()
    for (const sessionId of [a, b]) {
      const updates = harness.updatesOf(sessionId)
      const calls = updatesOfKind(updates, 'tool_call')
      const results = updatesOfKind(updates, 'tool_call_update')
      expect(calls).toHaveLength(1)
      expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.toolCallId))
      // The tool ran for this session, and its card says so.
      expect(JSON.stringify(results[0].content)).toContain(`session ${sessionId}`)
      callIds.set(calls[0].toolCallId, sessionId)
      // The message text is two whole turns of the script, never pieces of the other's.
      const message = chunkText(updates)
      const whole = texts.filter((text) => message.includes(text))
      expect(whole.join('').length).toBe(message.length)
      expect(whole).toHaveLength(2)
    }
    expect(callIds.size).toBe(2)
  })

  it('cancelling one session leaves the other running to its end', async () => {
    const harness = await makeHarness({
      delayMs: 5,
      script: {
        turns: [{ text: 'one long answer, streamed slowly' }, { text: 'the other answer' }],
      },
    })
    const [a, b] = [await harness.newSession(), await harness.newSession()]
    const first = harness.prompt(a, 'go')
    await harness.waitForUpdate((n) => n.sessionId === a)
    const second = harness.prompt(b, 'go')
    await harness.cancel(a)
    expect(await first).toEqual({ stopReason: 'cancelled' })
    expect(await second).toEqual({ stopReason: 'end_turn' })
    expect(chunkText(harness.updatesOf(b))).toBe('the other answer')
  })
})
