import { RequestError } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { chunkText, slowTool, useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

async function refusal(promise: Promise<unknown>): Promise<RequestError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof RequestError) return error
    throw error
  }
  throw new Error('expected the request to fail')
}

describe('bad session/new', () => {
  it('a relative cwd is refused with invalid params saying it is relative', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    const error = await refusal(harness.newSession('project'))
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('"project" is a relative path')
    expect(harness.ctx.agents.list()).toEqual([])
  })

  it('a cwd that does not exist is refused with invalid params', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    const error = await refusal(harness.newSession(`${harness.workspace}/missing`))
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('does not exist')
  })
})

describe('bad session/prompt', () => {
  it('an unknown session is refused with resource not found naming the session', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    const error = await refusal(harness.prompt('no-such-session', 'hi'))
    expect(error.code).toBe(-32002)
    expect(error.message).toContain('Session "no-such-session" not found')
  })

  it('an empty prompt is refused and the session still works', async () => {
    const harness = await makeHarness({ script: { turns: [{ text: 'fine' }] } })
    const sessionId = await harness.newSession()
    const error = await refusal(harness.prompt(sessionId, []))
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('prompt is empty')
    expect(await harness.prompt(sessionId, 'now')).toEqual({ stopReason: 'end_turn' })
    expect(chunkText(harness.updatesOf(sessionId))).toBe('fine')
  })

  it('an image for a model that reads text only is refused naming the model', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    expect(harness.initialized.agentCapabilities?.promptCapabilities?.image).toBe(false)
    const sessionId = await harness.newSession()
    const error = await refusal(
      harness.prompt(sessionId, [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]),
    )
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('The model scripted reads text only')
    expect(harness.ctx.agents.get(sessionId)?.session.events).toEqual([])
  })

  it('an image of another type, or not base64, is refused naming the block', async () => {
    const harness = await makeHarness({ script: { turns: [] }, withImages: true })
    expect(harness.initialized.agentCapabilities?.promptCapabilities?.image).toBe(true)
    const sessionId = await harness.newSession()
    const bmp = await refusal(
      harness.prompt(sessionId, [
        { type: 'text', text: 'see' },
        { type: 'image', data: 'AAAA', mimeType: 'image/bmp' },
      ]),
    )
    expect(bmp.message).toContain('prompt[1] is an image of type "image/bmp"; send one of')
    const garbled = await refusal(
      harness.prompt(sessionId, [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }]),
    )
    expect(garbled.message).toContain('prompt[0] is an image whose data is not base64')
    expect(harness.ctx.agents.get(sessionId)?.session.events).toEqual([])
  })

  it('a prompt while one is in flight is refused and the first completes', async () => {
    const slow = slowTool()
    const harness = await makeHarness({
      setup: slow.register,
      script: {
        turns: [{ toolCalls: [{ id: 's1', name: 'slow', arguments: {} }] }, { text: 'done' }],
      },
    })
    const sessionId = await harness.newSession()
    const first = harness.prompt(sessionId, 'one')
    await slow.started
    const error = await refusal(harness.prompt(sessionId, 'two'))
    expect(error.code).toBe(-32600)
    expect(error.message).toContain(`a prompt is already in flight for session "${sessionId}"`)
    await harness.cancel(sessionId)
    expect(await first).toEqual({ stopReason: 'cancelled' })
  })
})

describe('bad frames', () => {
  it('a line that is not JSON gets a parse error and the connection keeps serving', async () => {
    const harness = await makeHarness({ script: { turns: [{ text: 'still here' }] } })
    harness.writeRaw('this is not json\n')
    const reply = await harness.waitForAgentFrame((frame) =>
      JSON.stringify(frame.message).includes('-32700'),
    )
    expect(reply.message).toMatchObject({ id: null, error: { code: -32700 } })
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'hi')).toEqual({ stopReason: 'end_turn' })
  })

  it('an unknown method gets method not found and the connection keeps serving', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    harness.writeRaw('{"jsonrpc":"2.0","id":"raw-1","method":"session/teleport","params":{}}\n')
    const reply = await harness.waitForAgentFrame(
      (frame) => (frame.message as { id?: unknown }).id === 'raw-1',
    )
    expect(reply.message).toMatchObject({ error: { code: -32601 } })
    expect(JSON.stringify(reply.message)).toContain('session/teleport')
    expect(await harness.newSession()).toMatch(/\S/)
  })

  it('an ACP method the bridge does not offer gets method not found', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    harness.writeRaw(
      '{"jsonrpc":"2.0","id":"raw-3","method":"authenticate","params":{"methodId":"x"}}\n',
    )
    const reply = await harness.waitForAgentFrame(
      (frame) => (frame.message as { id?: unknown }).id === 'raw-3',
    )
    expect(reply.message).toMatchObject({ error: { code: -32601 } })
  })

  it('a request with malformed params gets invalid params and nothing runs', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    const sessionId = await harness.newSession()
    harness.writeRaw(
      `{"jsonrpc":"2.0","id":"raw-2","method":"session/prompt","params":{"sessionId":"${sessionId}","prompt":"hi"}}\n`,
    )
    const reply = await harness.waitForAgentFrame(
      (frame) => (frame.message as { id?: unknown }).id === 'raw-2',
    )
    expect(reply.message).toMatchObject({ error: { code: -32602 } })
    expect(harness.ctx.agents.get(sessionId)?.session.events).toEqual([])
  })

  it('a JSON value that is not a message gets invalid request', async () => {
    const harness = await makeHarness({ script: { turns: [] } })
    harness.writeRaw('[1,2]\n42\n')
    await harness.waitForAgentFrame((frame) => JSON.stringify(frame.message).includes('batches'))
    const second = await harness.waitForAgentFrame(
      (frame) =>
        !JSON.stringify(frame.message).includes('batches') &&
        JSON.stringify(frame.message).includes('-32600'),
    )
    expect(second.message).toMatchObject({ id: null, error: { code: -32600 } })
    expect(await harness.newSession()).toMatch(/\S/)
  })

  it('a message nested too deep to echo gets invalid request and the connection keeps serving', async () => {
    const harness = await makeHarness({ script: { turns: [{ text: 'still here' }] } })
    // Valid JSON, but an invalid message whose echo in the error's data JSON cannot encode.
    harness.writeRaw(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}\n`)
    const reply = await harness.waitForAgentFrame((frame) =>
      JSON.stringify(frame.message).includes('-32600'),
    )
    expect(reply.message).toMatchObject({ id: null, error: { code: -32600 } })
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'hi')).toEqual({ stopReason: 'end_turn' })
  })

  it('a cancel for an unknown session is ignored', async () => {
    const harness = await makeHarness({ script: { turns: [{ text: 'ok' }] } })
    await harness.cancel('nobody')
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'hi')).toEqual({ stopReason: 'end_turn' })
  })
})
