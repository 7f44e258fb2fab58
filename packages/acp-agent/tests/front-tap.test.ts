// The program's side of the front in process: the stack's answers to requests the front
// answered are checked, not sent; moved modes and options are set right with updates; failures
// are reported; the stack's answers are kept when new or different.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import type { FrontAnswered, FrontAnswers, FrontHandoff } from '../src/front-handoff'
import { tapFront } from '../src/front-tap'

const INIT_PARAMS = { protocolVersion: 1, clientCapabilities: {} }
const INIT_RESULT = { protocolVersion: 1, agentInfo: { name: 'dsh', version: '0.1.0' } }
const SESSION = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'
const modes = (current: string) => ({ currentModeId: current, availableModes: [] })
const options = (models: string[]) => [{ id: 'model', options: models.map((value) => ({ value })) }]
const NEW_RESULT = { modes: modes('ask'), configOptions: options(['a']) }

interface Tapped {
  /** What the client is sent. */
  sent: AnyMessage[]
  remembered: FrontAnswers[]
  reported: string[]
  /** The stack answers: what the tapped stream is given to write. */
  answer(message: AnyMessage): Promise<void>
}

/**
 * A tap over a stream whose client sent `initialize` (id 1), `session/new` (ids 2, 7), then
 * `session/list` under id 1 again.
 */
async function tap(answered: FrontAnswered[]): Promise<Tapped> {
  const sent: AnyMessage[] = []
  const remembered: FrontAnswers[] = []
  const reported: string[] = []
  const incoming: AnyMessage[] = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT_PARAMS },
    { jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/w', mcpServers: [] } },
    { jsonrpc: '2.0', id: 7, method: 'session/new', params: { cwd: '/v', mcpServers: [] } },
    // An id used again once its request was answered.
    { jsonrpc: '2.0', id: 1, method: 'session/list', params: {} },
  ]
  const stream: Stream = {
    readable: new ReadableStream({
      start(controller) {
        for (const message of incoming) controller.enqueue(message)
        controller.close()
      },
    }),
    writable: new WritableStream({ write: (message) => void sent.push(message) }),
  }
  const front: FrontHandoff = {
    answered,
    sessionIds: () => undefined,
    remember: (answers) => remembered.push(answers),
  }
  const tapped = tapFront(stream, front, (problem) => reported.push(problem))
  // The stack reads the requests before it answers them.
  const reader = tapped.readable.getReader()
  while (!(await reader.read()).done);
  const writer = tapped.writable.getWriter()
  return { sent, remembered, reported, answer: (message) => writer.write(message) }
}

const result = (id: number, body: object): AnyMessage => ({ jsonrpc: '2.0', id, result: body })
const frontAnswers: FrontAnswered[] = [
  { id: 1, method: 'initialize', result: INIT_RESULT },
  { id: 2, method: 'session/new', result: { sessionId: SESSION, ...NEW_RESULT } },
]

describe('the front tap', () => {
  it('the same answers as the front gave: nothing sent, nothing kept', async () => {
    const run = await tap(frontAnswers)
    await run.answer(result(1, INIT_RESULT))
    await run.answer(result(2, { sessionId: SESSION, ...NEW_RESULT }))
    const update: AnyMessage = { jsonrpc: '2.0', method: 'session/update', params: {} }
    await run.answer(update)
    expect(run.sent).toEqual([update])
    expect([run.remembered, run.reported]).toEqual([[], []])
  })

  it('a moved mode and model list: the updates that set them right, and the new answer kept', async () => {
    const run = await tap(frontAnswers)
    await run.answer(result(1, INIT_RESULT))
    const moved = { modes: modes('plan'), configOptions: options(['a', 'b']) }
    await run.answer(result(2, { sessionId: SESSION, ...moved }))
    expect(run.sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'session/update',
        params: {
          sessionId: SESSION,
          update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
        },
      },
      {
        jsonrpc: '2.0',
        method: 'session/update',
        params: {
          sessionId: SESSION,
          update: { sessionUpdate: 'config_option_update', configOptions: moved.configOptions },
        },
      },
    ])
    expect(run.remembered).toEqual([{ sessionNew: moved }])
  })

  it('nothing answered by the front: the stack answers go out and are kept', async () => {
    const run = await tap([])
    await run.answer(result(1, INIT_RESULT))
    await run.answer(result(2, { sessionId: SESSION, ...NEW_RESULT }))
    expect(run.sent.map((message) => ('id' in message ? message.id : undefined))).toEqual([1, 2])
    expect(run.remembered).toEqual([
      { initialize: { params: JSON.stringify(INIT_PARAMS), result: INIT_RESULT } },
      { sessionNew: NEW_RESULT },
    ])
  })

  it('the stack failing a session the front gave out, or answering initialize otherwise, is reported', async () => {
    const run = await tap(frontAnswers)
    const other = { ...INIT_RESULT, agentInfo: { name: 'dsh', version: '0.2.0' } }
    await run.answer(result(1, other))
    await run.answer({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'disk full' } })
    expect(run.sent).toEqual([])
    expect(run.reported).toEqual([
      'the start answered initialize unlike the stack',
      `the start gave out session ${SESSION}, the stack could not open it: disk full`,
    ])
    // The stack's initialize is kept for the next start; the failed session is not.
    expect(run.remembered).toEqual([
      { initialize: { params: JSON.stringify(INIT_PARAMS), result: other } },
    ])
  })

  it('an answer to a request that reuses the id of one the front answered goes out', async () => {
    const run = await tap(frontAnswers)
    await run.answer(result(1, INIT_RESULT))
    await run.answer(result(2, { sessionId: SESSION, ...NEW_RESULT }))
    await run.answer(result(1, { sessions: [] }))
    expect(run.sent).toEqual([result(1, { sessions: [] })])
  })

  it('an answer to a later session/new passes untouched and is not kept', async () => {
    const run = await tap([])
    await run.answer(result(1, INIT_RESULT))
    await run.answer(result(2, { sessionId: SESSION, ...NEW_RESULT }))
    await run.answer(result(7, { sessionId: 'another', ...NEW_RESULT }))
    expect(run.sent).toHaveLength(3)
    expect(run.remembered).toHaveLength(2)
  })
})
