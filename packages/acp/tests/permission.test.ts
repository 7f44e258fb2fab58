// Asking the client: the permission layer's request as session/request_permission params, and
// the client's answer (or its error answer) back.
import { describe, expect, it } from 'vitest'
import {
  fromAcpPermissionError,
  fromAcpPermissionResponse,
  toAcpPermissionRequest,
} from '../src/wire/permission'
import { toAcpPendingToolCall } from '../src/cards/permission-card'
import { toAcpTextContent, toAcpToolCall } from '../src/wire/to-acp'
import { testExecution } from '@deepseek-ai/dsh-tools/testing'

const request = {
  exec: testExecution('write', { file_path: 'a.txt', content: 'x' }, { callId: 'c1' }),
  presentation: {
    title: 'Write a.txt',
    kind: 'edit' as const,
    locations: [{ path: 'a.txt', line: 3 }],
  },
  preview: [{ type: 'diff' as const, path: '/w/a.txt', oldText: null, newText: 'x' }],
  options: [
    { optionId: 'allow_once', kind: 'allow_once' as const, name: 'Allow' },
    { optionId: 'reject_once', kind: 'reject_once' as const, name: 'Reject' },
  ],
}

describe('the request', () => {
  it('carries the call without a card: title, kind, absolute locations, arguments and preview', () => {
    expect(toAcpPermissionRequest('s1', 'c1#2', request, '/w')).toEqual({
      sessionId: 's1',
      toolCall: {
        toolCallId: 'c1#2',
        title: 'Write a.txt',
        name: 'write',
        kind: 'edit',
        status: 'pending',
        rawInput: { file_path: 'a.txt', content: 'x' },
        content: [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: 'x' }],
        locations: [{ path: '/w/a.txt', line: 3 }],
      },
      options: [
        { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
        { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
      ],
    })
  })

  it('leaves locations and content off when the call has none and gives a generic kind', () => {
    const bare = { ...request, presentation: { title: 'run' }, preview: [] }
    const params = toAcpPermissionRequest('s1', 'c1', bare, '/w')
    expect(params.toolCall).toEqual({
      toolCallId: 'c1',
      title: 'run',
      name: 'write',
      kind: 'other',
      status: 'pending',
      rawInput: { file_path: 'a.txt', content: 'x' },
    })
  })

  it('is the pending card the client was shown, whatever that card carries', () => {
    const opening = toAcpToolCall(
      { callId: 'c1#2', name: 'write', args: { clipped: true }, cwd: '/w' },
      { title: 'Write a.txt', kind: 'edit', rawInput: 'summary' },
    )
    const card = toAcpPendingToolCall(opening, [toAcpTextContent('preview')])
    const { sessionUpdate: _update, ...shown } = card
    const params = toAcpPermissionRequest('s1', 'c1#2', request, '/w', card)
    expect(params.toolCall).toEqual(shown)
    expect(params.toolCall.rawInput).toEqual({ clipped: true })
    expect(params.toolCall.content).toEqual([
      toAcpTextContent('summary'),
      toAcpTextContent('preview'),
    ])
  })
})

describe('the answer', () => {
  it('keeps the selected option and a cancelled outcome', () => {
    expect(
      fromAcpPermissionResponse({ outcome: { outcome: 'selected', optionId: 'allow_once' } }),
    ).toEqual({ outcome: 'selected', optionId: 'allow_once' })
    expect(fromAcpPermissionResponse({ outcome: { outcome: 'cancelled' } })).toEqual({
      outcome: 'cancelled',
    })
  })

  it('an answer that is no permission outcome is a failure to ask, not a cancel', () => {
    for (const answer of [{}, null, { outcome: { outcome: 'selected' } }, { outcome: 'yes' }]) {
      expect(fromAcpPermissionResponse(answer)).toEqual({
        outcome: 'failed',
        reason: 'its answer to session/request_permission was not a permission outcome',
      })
    }
  })

  it('an error answer is a failure to ask that names the code and the message', () => {
    expect(fromAcpPermissionError({ code: -32603, message: 'no window to ask in' })).toEqual({
      outcome: 'failed',
      reason: 'it answered session/request_permission with error -32603: no window to ask in',
    })
    const long = fromAcpPermissionError({ code: 1, message: 'x'.repeat(1000) })
    expect(long.outcome === 'failed' && long.reason.length).toBeLessThan(300)
  })
})
