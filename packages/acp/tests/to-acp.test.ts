import { describe, expect, it } from 'vitest'
import {
  toAcpContent,
  toAcpLocations,
  toAcpPath,
  toAcpStopReason,
  toAcpToolCall,
  toAcpToolCallUpdate,
  toAcpUnfinishedToolCall,
} from '../src/wire/to-acp'
import { toAcpNotice } from '../src/sessions/session-opening'

const cwd = '/work/project'

describe('paths and locations', () => {
  it('a relative path is resolved against the session cwd', () => {
    expect(toAcpPath('src/a.ts', cwd)).toBe('/work/project/src/a.ts')
    expect(toAcpPath('../b.ts', cwd)).toBe('/work/b.ts')
  })

  it('an absolute path is kept, normalised', () => {
    expect(toAcpPath('/etc/x/../hosts', cwd)).toBe('/etc/hosts')
  })

  it('locations become absolute and keep a 1-based line', () => {
    expect(toAcpLocations([{ path: 'a.ts', line: 10 }, { path: '/abs/b.ts' }], cwd)).toEqual([
      { path: '/work/project/a.ts', line: 10 },
      { path: '/abs/b.ts' },
    ])
  })

  it('a line that is not a positive integer is left off rather than sent wrong', () => {
    const locations = toAcpLocations(
      [
        { path: 'a', line: 0 },
        { path: 'b', line: -3 },
        { path: 'c', line: 2.5 },
        { path: 'd', line: Number.NaN },
      ],
      cwd,
    )
    expect(locations.every((location) => !('line' in location))).toBe(true)
  })
})

describe('content blocks', () => {
  it('text becomes a content block and a diff keeps old and new text with an absolute path', () => {
    expect(
      toAcpContent(
        [
          { type: 'text', text: 'hello' },
          { type: 'diff', path: 'a.ts', oldText: 'x', newText: 'y' },
          { type: 'diff', path: '/n.ts', oldText: null, newText: 'new' },
        ],
        cwd,
      ),
    ).toEqual([
      { type: 'content', content: { type: 'text', text: 'hello' } },
      { type: 'diff', path: '/work/project/a.ts', oldText: 'x', newText: 'y' },
      { type: 'diff', path: '/n.ts', oldText: null, newText: 'new' },
    ])
  })

  it('an image becomes an image block and a link a resource_link block', () => {
    expect(
      toAcpContent(
        [
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          {
            type: 'link',
            uri: 'https://x.test/a',
            name: 'a',
            title: 'The A',
            mimeType: 'text/html',
          },
          { type: 'link', uri: 'file:///b', name: 'b' },
        ],
        cwd,
      ),
    ).toEqual([
      { type: 'content', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
      {
        type: 'content',
        content: {
          type: 'resource_link',
          uri: 'https://x.test/a',
          name: 'a',
          title: 'The A',
          mimeType: 'text/html',
        },
      },
      { type: 'content', content: { type: 'resource_link', uri: 'file:///b', name: 'b' } },
    ])
  })
})

describe('notices', () => {
  it('a notice goes out as a notice update when the client shows them, else as a quoted dsh message', () => {
    const notice = {
      title: 'Server x stopped.',
      description: 'It printed: boom',
      severity: 'error' as const,
    }
    expect(toAcpNotice(notice, true)).toEqual({
      sessionUpdate: 'notice',
      severity: 'error',
      title: 'Server x stopped.',
      description: 'It printed: boom',
    })
    expect(toAcpNotice(notice, false)).toEqual({
      sessionUpdate: 'agent_message_chunk',
      content: {
        type: 'text',
        text: '\n\n> dsh: Server x stopped.\n>\n> It printed: boom\n\n',
      },
    })
    expect(toAcpNotice({ title: 'Hi.' }, true)).toEqual({
      sessionUpdate: 'notice',
      severity: 'info',
      title: 'Hi.',
    })
  })
})

describe('tool_call', () => {
  const input = { callId: 'c1', name: 'read', args: { file_path: 'a.ts', offset: 10 }, cwd }

  it('a presentation gives title, kind, absolute locations and its summary as content', () => {
    const call = toAcpToolCall(input, {
      title: 'Read a.ts',
      kind: 'read',
      rawInput: 'offset 10',
      locations: [{ path: 'a.ts', line: 10 }],
    })
    expect(call).toEqual({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Read a.ts',
      name: 'read',
      kind: 'read',
      status: 'in_progress',
      rawInput: { file_path: 'a.ts', offset: 10 },
      content: [{ type: 'content', content: { type: 'text', text: 'offset 10' } }],
      locations: [{ path: '/work/project/a.ts', line: 10 }],
    })
  })

  it('a tool without a presentation gets the generic card', () => {
    expect(toAcpToolCall(input, undefined)).toEqual({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'read',
      name: 'read',
      kind: 'other',
      status: 'in_progress',
      rawInput: { file_path: 'a.ts', offset: 10 },
    })
  })

  it('an object summary is never shown as JSON; the presentation content is the card content', () => {
    const call = toAcpToolCall(input, {
      title: 'T',
      rawInput: { n: 1 },
      content: [{ type: 'text', text: 'more' }],
    })
    expect(call.content).toEqual([{ type: 'content', content: { type: 'text', text: 'more' } }])
  })

  it('an empty title falls back to the tool name', () => {
    expect(toAcpToolCall(input, { title: '' }).title).toBe('read')
  })

  it('a string argument over 64 KiB goes out as its head and how much more there was', () => {
    const content = 'a'.repeat(3_000_000)
    const args = { file_path: 'big.txt', content }
    const call = toAcpToolCall({ ...input, name: 'write', args }, { title: 'Write big.txt' })
    const sent = call.rawInput as { file_path: string; content: string }
    expect(sent.file_path).toBe('big.txt')
    expect(sent.content.length).toBeLessThanOrEqual(64 * 1024)
    const [, head = '', more = ''] = /^(a+)… \((\d+) more characters\)$/.exec(sent.content) ?? []
    expect(head.length).toBeGreaterThan(60_000)
    expect(head.length + Number(more)).toBe(3_000_000)
    expect(args.content).toBe(content)
  })
})

describe('tool_call_update', () => {
  const result = { callId: 'c1', content: [{ type: 'text' as const, text: 'ok' }], cwd }

  it('a result presentation gives title, diff content and the changed line', () => {
    const update = toAcpToolCallUpdate(
      { ...result, isError: false },
      {
        title: 'Edited a.ts',
        content: [{ type: 'diff', path: 'a.ts', oldText: 'a\n', newText: 'b\n' }],
        locations: [{ path: 'a.ts', line: 3 }],
      },
    )
    expect(update).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'completed',
      title: 'Edited a.ts',
      content: [{ type: 'diff', path: '/work/project/a.ts', oldText: 'a\n', newText: 'b\n' }],
      locations: [{ path: '/work/project/a.ts', line: 3 }],
    })
  })

  it('without a presentation the result text is the content', () => {
    expect(toAcpToolCallUpdate({ ...result, isError: false }, undefined)).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'ok' } }],
    })
  })

  it('an error result is failed and shows its text', () => {
    const update = toAcpToolCallUpdate(
      { callId: 'c2', content: [{ type: 'text', text: 'Error: no' }], isError: true, cwd },
      { title: 'Edit a.ts' },
    )
    expect(update.status).toBe('failed')
    expect(update.title).toBe('Edit a.ts')
    expect(update.content).toEqual([
      { type: 'content', content: { type: 'text', text: 'Error: no' } },
    ])
  })

  it('an error result with a code carries it in rawOutput; a success has none', () => {
    const failed = toAcpToolCallUpdate(
      {
        callId: 'c2',
        content: [{ type: 'text', text: 'Error: stale' }],
        isError: true,
        error: { name: 'FsError', code: 'FS_STALE_VERSION' },
        cwd,
      },
      undefined,
    )
    expect(failed.rawOutput).toEqual({ error: { name: 'FsError', code: 'FS_STALE_VERSION' } })
    const ok = toAcpToolCallUpdate(
      { callId: 'c3', content: [{ type: 'text', text: 'fine' }], isError: false, cwd },
      undefined,
    )
    expect(ok).not.toHaveProperty('rawOutput')
  })

  it('a card left open by a cancelled turn is closed as failed', () => {
    const update = toAcpUnfinishedToolCall('c3', 'cancelled')
    expect(update.status).toBe('failed')
    expect(update.toolCallId).toBe('c3')
  })
})

describe('stop reasons', () => {
  it('each turn end maps to its ACP stop reason', () => {
    expect(toAcpStopReason('completed')).toBe('end_turn')
    expect(toAcpStopReason('cancelled')).toBe('cancelled')
    expect(toAcpStopReason('max-steps')).toBe('max_turn_requests')
    expect(toAcpStopReason('error')).toBe('end_turn')
  })
})
