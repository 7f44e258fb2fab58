import { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import ToolRegistry, { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolPresentationView } from '@deepseek-ai/dsh-tools'
import { presentSessionEvent } from '../src/presenter'
import type { AcpPresenterContext } from '../src/presenter'

const cwd = '/work/project'
const turnId = 't1'

// A tool with both presenters, recording the view each was given.
const views: (ToolPresentationView | undefined)[] = []
const touch = defineTool({
  name: 'touch',
  description: 'Touches a file.',
  input: z.object({ file_path: z.string(), line: z.number().optional() }),
  execute: async () => 'touched',
  presentCall: (args, view) => {
    views.push(view)
    return {
      title: `Touch ${args.file_path}`,
      kind: 'edit',
      locations: [{ path: args.file_path, line: args.line }],
    }
  },
  presentResult: (args, result, view) => {
    views.push(view)
    if (result.isError) return undefined
    return {
      title: `Touched ${args.file_path}`,
      content: [{ type: 'diff', path: args.file_path, oldText: null, newText: 'x' }],
      locations: [{ path: args.file_path, line: 1 }],
    }
  },
})
const plain = defineTool({
  name: 'plain',
  description: 'No presentation.',
  input: z.object({}),
  execute: async () => 'plain result',
})

describe('presenting session events', () => {
  let context: AcpPresenterContext
  let dispose: () => Promise<void>
  const args = new Map<string, unknown>()

  beforeEach(async () => {
    views.length = 0
    args.clear()
    const root = new Context()
    const fiber = await root.plugin(ToolRegistry, {})
    dispose = () => fiber.dispose()
    root.tools.register(touch)
    root.tools.register(plain)
    context = { tools: root.tools, cwd, argsOf: (callId) => args.get(callId) }
  })

  afterEach(async () => {
    await dispose()
  })

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

  it('a tool call is presented with the session cwd as view and absolute locations', () => {
    const [update] = presentSessionEvent(
      {
        type: 'tool/call',
        turnId,
        callId: 'c1',
        name: 'touch',
        arguments: { file_path: 'a.ts', line: 4 },
      },
      context,
    )
    expect(update).toMatchObject({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Touch a.ts',
      kind: 'edit',
      status: 'in_progress',
      locations: [{ path: '/work/project/a.ts', line: 4 }],
    })
    expect(views).toEqual([{ cwd }])
  })

  it('a tool result is presented with the call arguments kept by the session', () => {
    args.set('c1', { file_path: 'a.ts' })
    const [update] = presentSessionEvent(
      {
        type: 'tool/result',
        turnId,
        callId: 'c1',
        name: 'touch',
        content: [{ type: 'text', text: 'touched' }],
        isError: false,
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
      { type: 'tool/call', turnId, callId: 'c2', name: 'plain', arguments: {} },
      context,
    )
    expect(call).toMatchObject({ title: 'plain', kind: 'other' })
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

  it('a call with bad arguments or an unknown tool falls back to the generic card', () => {
    const [bad] = presentSessionEvent(
      { type: 'tool/call', turnId, callId: 'c3', name: 'touch', arguments: { file_path: 7 } },
      context,
    )
    expect(bad).toMatchObject({ title: 'touch', kind: 'other', rawInput: { file_path: 7 } })
    const [unknown] = presentSessionEvent(
      { type: 'tool/call', turnId, callId: 'c4', name: 'nope', arguments: 'not json' },
      context,
    )
    expect(unknown).toMatchObject({ title: 'nope', kind: 'other', rawInput: 'not json' })
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
