import { describe, expect, it } from 'vitest'
import { slowTool, updatesOfKind, useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const slowScript = {
  turns: [
    { text: 'Starting.', toolCalls: [{ id: 'slow-1', name: 'slow', arguments: {} }] },
    { text: 'This turn never runs.' },
  ],
}

describe('session/cancel', () => {
  it('cancelling mid-tool aborts the tool and the prompt settles cancelled', async () => {
    const slow = slowTool()
    const harness = await makeHarness({ setup: slow.register, script: slowScript })
    const sessionId = await harness.newSession()
    const prompt = harness.prompt(sessionId, 'go')
    await slow.started
    await harness.cancel(sessionId)
    expect(await prompt).toEqual({ stopReason: 'cancelled' })
    expect(slow.aborted).toBe(1)
    const updates = harness.updatesOf(sessionId)
    const [call] = updatesOfKind(updates, 'tool_call')
    expect(call).toMatchObject({
      toolCallId: 'slow-1',
      title: 'slow',
      kind: 'other',
      status: 'in_progress',
    })
    const closing = updatesOfKind(updates, 'tool_call_update').filter(
      (u) => u.toolCallId === 'slow-1',
    )
    expect(closing.at(-1)?.status).toBe('failed')
    expect(JSON.stringify(updates)).not.toContain('This turn never runs.')
  })

  it('a cancelled session takes the next prompt', async () => {
    const slow = slowTool()
    const harness = await makeHarness({
      setup: slow.register,
      script: {
        turns: [{ toolCalls: [{ id: 'slow-1', name: 'slow', arguments: {} }] }, { text: 'again' }],
      },
    })
    const sessionId = await harness.newSession()
    const prompt = harness.prompt(sessionId, 'go')
    await slow.started
    await harness.cancel(sessionId)
    await prompt
    expect(await harness.prompt(sessionId, 'once more')).toEqual({ stopReason: 'end_turn' })
  })

  it('cancelling the prompt request itself ($/cancel_request) cancels the turn', async () => {
    const slow = slowTool()
    const harness = await makeHarness({ setup: slow.register, script: slowScript })
    const sessionId = await harness.newSession()
    const controller = new AbortController()
    const prompt = harness.agent.request(
      'session/prompt',
      { sessionId, prompt: [{ type: 'text', text: 'go' }] },
      { cancellationSignal: controller.signal },
    )
    await slow.started
    controller.abort()
    const settled = await prompt.then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    )
    expect(slow.aborted).toBe(1)
    expect(settled).toEqual({ response: { stopReason: 'cancelled' } })
    expect(harness.ctx.agents.get(sessionId)?.running).toBe(false)
  })

  it('cancelling while the model streams settles cancelled', async () => {
    const harness = await makeHarness({
      delayMs: 5,
      script: {
        turns: [{ text: 'a long answer that streams slowly, piece by piece, for a while' }],
      },
    })
    const sessionId = await harness.newSession()
    const prompt = harness.prompt(sessionId, 'go')
    await harness.waitForUpdate((n) => n.sessionId === sessionId)
    await harness.cancel(sessionId)
    expect(await prompt).toEqual({ stopReason: 'cancelled' })
  })
})

describe('client disconnect', () => {
  it('a disconnect mid-turn cancels the turn and releases the agents', async () => {
    const slow = slowTool()
    const harness = await makeHarness({ setup: slow.register, script: slowScript })
    const sessionId = await harness.newSession()
    const other = await harness.newSession()
    void harness.prompt(sessionId, 'go').catch(() => undefined)
    await slow.started
    await harness.disconnect()
    expect(slow.aborted).toBe(1)
    expect(harness.ctx.agents.list()).toEqual([])
    expect(harness.server.sessionIds()).toEqual([])
    expect(harness.ctx.agents.get(other)).toBeUndefined()
  })

  it('disposing the plugin closes its connections', async () => {
    const slow = slowTool()
    const harness = await makeHarness({ setup: slow.register, script: slowScript })
    const sessionId = await harness.newSession()
    void harness.prompt(sessionId, 'go').catch(() => undefined)
    await slow.started
    expect(harness.ctx.acp.size).toBe(1)
    await harness.ctx.acp.closeAll()
    await harness.server.closed
    expect(harness.ctx.acp.size).toBe(0)
    expect(slow.aborted).toBe(1)
  })
})
