// The frame validator itself: it must fail on frames the SDK would silently drop or mangle,
// else "every frame validates" proves nothing.
import { describe, expect, it } from 'vitest'
import type { AcpFrame } from '../src/frames'
import { agentFrameProblems, knowsMethod } from '../src/schema'

function update(update: Record<string, unknown>): AcpFrame {
  const message = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } }
  return {
    from: 'agent',
    text: JSON.stringify(message),
    message,
    method: 'session/update',
    raw: false,
  }
}

function response(method: string, result: unknown): AcpFrame {
  const message = { jsonrpc: '2.0', id: 1, result }
  return { from: 'agent', text: JSON.stringify(message), message, method, raw: false }
}

const goodCall = {
  sessionUpdate: 'tool_call',
  toolCallId: 'c1',
  title: 'Read a.ts',
  kind: 'read',
  status: 'in_progress',
  locations: [{ path: '/w/a.ts', line: 3 }],
}

describe('the frame validator', () => {
  it('accepts a well-formed tool_call', () => {
    expect(agentFrameProblems(update(goodCall))).toEqual([])
  })

  it('rejects a tool_call without a title, with a bad kind, or with a negative line', () => {
    const { title: _title, ...untitled } = goodCall
    expect(agentFrameProblems(update(untitled))).not.toEqual([])
    expect(agentFrameProblems(update({ ...goodCall, kind: 'teleport' }))).not.toEqual([])
    expect(
      agentFrameProblems(update({ ...goodCall, locations: [{ path: '/w/a.ts', line: -1 }] })),
    ).not.toEqual([])
  })

  it('rejects a diff without newText and an unknown update kind', () => {
    const diff = { type: 'diff', path: '/w/a.ts', oldText: 'a' }
    expect(
      agentFrameProblems(
        update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', content: [diff] }),
      ),
    ).not.toEqual([])
    expect(agentFrameProblems(update({ sessionUpdate: 'shout', text: 'x' }))).not.toEqual([])
  })

  it('checks a response against the definition of the method it answers', () => {
    expect(agentFrameProblems(response('session/prompt', { stopReason: 'end_turn' }))).toEqual([])
    expect(agentFrameProblems(response('session/prompt', { stopReason: 'done' }))).not.toEqual([])
    expect(agentFrameProblems(response('session/new', {}))).not.toEqual([])
    expect(knowsMethod('initialize', true)).toBe(true)
    expect(knowsMethod('session/update', false)).toBe(true)
    expect(knowsMethod('$/cancel_request', false)).toBe(true)
    expect(knowsMethod('session/prompt', false)).toBe(false)
  })

  it('checks a subagent update against the schema the client negotiated', () => {
    const announce = { sessionUpdate: 'subagent_update', sessionId: 'c', title: 'T', cwd: '/w' }
    const idle = { ...announce, state: { state: 'idle', stopReason: 'end_turn' } }
    expect(agentFrameProblems(update(announce))).not.toEqual([])
    expect(agentFrameProblems(update(announce), { unstable: true })).toEqual([])
    expect(agentFrameProblems(update(idle), { unstable: true })).toEqual([])
    expect(
      agentFrameProblems(update({ ...announce, sessionId: 7 }), { unstable: true }),
    ).not.toEqual([])
    // The unstable schema still holds the stable protocol.
    expect(agentFrameProblems(update(goodCall), { unstable: true })).toEqual([])
    expect(
      agentFrameProblems(update({ ...goodCall, kind: 'teleport' }), { unstable: true }),
    ).not.toEqual([])
  })

  it('rejects a line that is not JSON', () => {
    expect(
      agentFrameProblems({ from: 'agent', text: '{oops', message: undefined, raw: false }),
    ).not.toEqual([])
  })
})
