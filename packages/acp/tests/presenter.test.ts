// The presenter: session events as ACP updates, from the presentations the events carry.
import { describe, expect, it } from 'vitest'
import { presentSessionEvent } from '../src/cards/presenter'

const cwd = '/work/project'
const turnId = 't1'
const context = { cwd }

describe('presenting session events', () => {
  it('assistant text and reasoning become message and thought chunks', () => {
    expect(
      presentSessionEvent({ type: 'assistant/chunk', turnId, kind: 'text', text: 'hi' }, context),
    ).toEqual([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }])
    expect(
      presentSessionEvent(
        { type: 'assistant/chunk', turnId, kind: 'reasoning', text: 'hm' },
        context,
      ),
    ).toEqual([{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hm' } }])
  })

  it('a tool call shows its card with the locations made absolute against the session cwd', () => {
    const [update] = presentSessionEvent(
      {
        type: 'tool/call',
        turnId,
        callId: 'c1',
        name: 'touch',
        arguments: { file_path: 'a.ts', line: 4 },
        presentation: { title: 'Touch a.ts', kind: 'edit', locations: [{ path: 'a.ts', line: 4 }] },
      },
      context,
    )
    expect(update).toMatchObject({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Touch a.ts',
      kind: 'edit',
      status: 'in_progress',
      rawInput: { file_path: 'a.ts', line: 4 },
      locations: [{ path: '/work/project/a.ts', line: 4 }],
    })
  })

  it('a tool result shows its finished card: title, diff and locations made absolute', () => {
    const [update] = presentSessionEvent(
      {
        type: 'tool/result',
        turnId,
        callId: 'c1',
        name: 'touch',
        content: [{ type: 'text', text: 'touched' }],
        isError: false,
        presentation: {
          title: 'Touched a.ts',
          content: [{ type: 'diff', path: 'a.ts', oldText: null, newText: 'x' }],
          locations: [{ path: 'a.ts', line: 1 }],
        },
      },
      context,
    )
    expect(update).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'completed',
      title: 'Touched a.ts',
      content: [{ type: 'diff', path: '/work/project/a.ts', oldText: null, newText: 'x' }],
      locations: [{ path: '/work/project/a.ts', line: 1 }],
    })
  })

  it('a tool without presentation gets the generic card and its result text', () => {
    const [call] = presentSessionEvent(
      { type: 'tool/call', turnId, callId: 'c2', name: 'plain', arguments: 'not json' },
      context,
    )
    expect(call).toMatchObject({ title: 'plain', kind: 'other', rawInput: 'not json' })
    const [result] = presentSessionEvent(
      {
        type: 'tool/result',
        turnId,
        callId: 'c2',
        name: 'plain',
        content: [{ type: 'text', text: 'plain result' }],
        isError: false,
      },
      context,
    )
    expect(result).toMatchObject({
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'plain result' } }],
    })
  })

  it('a mode change becomes current_mode_update', () => {
    expect(presentSessionEvent({ type: 'session/mode', mode: 'read-only' }, context)).toEqual([
      { sessionUpdate: 'current_mode_update', currentModeId: 'read-only' },
    ])
  })

  it('a failed turn shows its error as a message chunk and other turn events show nothing', () => {
    const [chunk] = presentSessionEvent(
      { type: 'turn/end', turnId, reason: 'error', error: 'model down' },
      context,
    )
    expect(chunk).toMatchObject({ sessionUpdate: 'agent_message_chunk' })
    expect(JSON.stringify(chunk)).toContain('Error: model down')
    expect(presentSessionEvent({ type: 'turn/end', turnId, reason: 'completed' }, context)).toEqual(
      [],
    )
    expect(presentSessionEvent({ type: 'turn/start', turnId }, context)).toEqual([])
    expect(presentSessionEvent({ type: 'user/message', turnId, text: 'x' }, context)).toEqual([])
  })
})
