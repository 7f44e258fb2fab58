// The frame checker on lines as a process writes them: the recorder labels a response with the
// method of the client request it answers, and the checker refuses bad lines.
import { describe, expect, it } from 'vitest'
import { FrameRecorder } from '../src/frames'
import { agentFrameProblems } from '../src/schema'

/** The problems of `line` written by the agent after the client sent requests `requests`. */
function agentLineProblems(line: string, requests: Map<unknown, string>): string[] {
  const recorder = new FrameRecorder()
  for (const [id, method] of requests) {
    recorder.tap('client', `${JSON.stringify({ jsonrpc: '2.0', id, method, params: {} })}\n`)
  }
  recorder.tap('agent', `${line}\n`)
  return agentFrameProblems(recorder.frames.at(-1)!)
}

const update = (update: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } })

describe('the acp frame checker', () => {
  const noRequests = new Map<unknown, string>()

  it('accepts a well-formed tool call', () => {
    const line = update({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Read a.txt',
      kind: 'read',
      status: 'in_progress',
      locations: [{ path: '/w/a.txt', line: 1 }],
    })
    expect(agentLineProblems(line, noRequests)).toEqual([])
  })

  it('refuses a tool call without a title', () => {
    const line = update({ sessionUpdate: 'tool_call', toolCallId: 'c1', kind: 'read' })
    expect(agentLineProblems(line, noRequests)).not.toEqual([])
  })

  it('refuses an unknown tool kind', () => {
    const line = update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 't', kind: 'bogus' })
    expect(agentLineProblems(line, noRequests)).not.toEqual([])
  })

  it('refuses a line that is not json', () => {
    expect(agentLineProblems('hello', noRequests)).toEqual(['not JSON'])
  })

  it('checks a response against the result of the request it answers', () => {
    const methods = new Map<unknown, string>([[0, 'session/prompt']])
    const good = JSON.stringify({ jsonrpc: '2.0', id: 0, result: { stopReason: 'end_turn' } })
    const bad = JSON.stringify({ jsonrpc: '2.0', id: 0, result: { stopReason: 'finished' } })
    expect(agentLineProblems(good, methods)).toEqual([])
    expect(agentLineProblems(bad, methods)).not.toEqual([])
  })

  it('refuses a response to a request that was never sent', () => {
    const line = JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} })
    expect(agentLineProblems(line, noRequests)).toEqual(['a response to an unknown request 7'])
  })
})
