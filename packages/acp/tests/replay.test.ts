import type { SessionEvent } from '@deepseek-ai/dsh-agent'
import { describe, expect, it } from 'vitest'
import { joinChunks, replayUpdates } from '../src/cards/replay'
import { ToolCards } from '../src/cards/tool-cards'
import { LONG_STRING_CHARS } from '@deepseek-ai/dsh-tools'

const text = (turnId: string, value: string): SessionEvent => ({
  type: 'assistant/chunk',
  turnId,
  kind: 'text',
  text: value,
})
const thought = (turnId: string, value: string): SessionEvent => ({
  type: 'assistant/chunk',
  turnId,
  kind: 'reasoning',
  text: value,
})

describe('the replay of a stored session', () => {
  it('joins each run of streamed text of one kind in one turn into one chunk', () => {
    const call: SessionEvent = {
      type: 'tool/call',
      turnId: 't1',
      callId: 'c1',
      name: 'read',
      arguments: {},
    }
    const events: SessionEvent[] = [
      { type: 'turn/start', turnId: 't1' },
      thought('t1', 'Let '),
      thought('t1', 'me look.'),
      text('t1', 'Read'),
      text('t1', 'ing '),
      text('t1', 'it.'),
      call,
      text('t1', 'Done.'),
      { type: 'turn/end', turnId: 't1', reason: 'completed' },
      text('t2', 'Next'),
      text('t3', ' turn'),
    ]
    expect([...joinChunks(events)]).toEqual([
      { type: 'turn/start', turnId: 't1' },
      thought('t1', 'Let me look.'),
      text('t1', 'Reading it.'),
      call,
      text('t1', 'Done.'),
      { type: 'turn/end', turnId: 't1', reason: 'completed' },
      text('t2', 'Next'),
      text('t3', ' turn'),
    ])
  })

  it('keeps every other event as it is, in order, and an empty log empty', () => {
    const events: SessionEvent[] = [
      { type: 'user/message', turnId: 't1', text: 'a' },
      { type: 'user/message', turnId: 't1', text: 'b' },
      { type: 'session/mode', mode: 'ask' },
    ]
    expect([...joinChunks(events)]).toEqual(events)
    expect([...joinChunks([])]).toEqual([])
  })
})

describe('the updates a stored session replays as', () => {
  const presenter = { cwd: '/w' }
  const call = (callId: string): SessionEvent => ({
    type: 'tool/call',
    turnId: 't1',
    callId,
    name: 'edit',
    arguments: { file_path: 'a.ts' },
    presentation: { title: 'Edit a.ts', kind: 'edit', locations: [{ path: 'a.ts' }] },
  })

  it('shows each card once, as it ended, under a wire id a later call never reuses', () => {
    const cards = new ToolCards()
    const events: SessionEvent[] = [
      { type: 'user/message', turnId: 't1', text: 'fix it' },
      call('c1'),
      { type: 'tool/asked', turnId: 't1', callId: 'c1', preview: [] },
      { type: 'tool/started', turnId: 't1', callId: 'c1' },
      {
        type: 'tool/result',
        turnId: 't1',
        callId: 'c1',
        name: 'edit',
        content: [{ type: 'text', text: 'Edited.' }],
        isError: false,
        presentation: {
          title: 'Edited a.ts',
          content: [{ type: 'diff', path: 'a.ts', oldText: 'a', newText: 'b' }],
          locations: [{ path: 'a.ts', line: 1 }],
        },
      },
      { type: 'turn/end', turnId: 't1', reason: 'completed' },
    ]
    expect([...replayUpdates(events, cards, presenter)]).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'fix it' } },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'Edited a.ts',
        name: 'edit',
        kind: 'edit',
        status: 'completed',
        rawInput: { file_path: 'a.ts' },
        content: [{ type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b' }],
        locations: [{ path: '/w/a.ts', line: 1 }],
      },
    ])
    expect(cards.wireIdFor('c1')).toBe('c1#2')
  })

  it('ends a card whose turn ended without its result as failed, in one update', () => {
    const updates = [...replayUpdates([call('c1')], new ToolCards(), presenter)]
    expect(updates).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'Edit a.ts',
        name: 'edit',
        kind: 'edit',
        status: 'failed',
        rawInput: { file_path: 'a.ts' },
        content: [{ type: 'content', content: { type: 'text', text: 'The tool did not finish.' } }],
        locations: [{ path: '/w/a.ts' }],
      },
    ])
  })

  it('clips a huge message of the person and sends a huge answer in pieces, no frame over 64 KiB', () => {
    const message = 'm'.repeat(3_000_000)
    const answer = `${'a'.repeat(LONG_STRING_CHARS * 2)}😀${'b'.repeat(100)}`
    const events: SessionEvent[] = [
      { type: 'user/message', turnId: 't1', text: message },
      text('t1', answer.slice(0, 1000)),
      text('t1', answer.slice(1000)),
      { type: 'turn/end', turnId: 't1', reason: 'completed' },
    ]
    const updates = [...replayUpdates(events, new ToolCards(), presenter)]
    const texts = updates.map((update): [string, string] => {
      const content = 'content' in update ? update.content : undefined
      if (content == null || Array.isArray(content) || !('type' in content)) {
        throw new Error(`unexpected update ${update.sessionUpdate}`)
      }
      return [update.sessionUpdate, content.type === 'text' ? content.text : '']
    })
    expect(texts[0]?.[0]).toBe('user_message_chunk')
    expect(texts[0]?.[1]).toMatch(/^m+… \(\d+ more characters\)$/)
    expect(texts.slice(1).map(([kind]) => kind)).toEqual([
      'agent_message_chunk',
      'agent_message_chunk',
      'agent_message_chunk',
    ])
    expect(
      texts
        .slice(1)
        .map(([, piece]) => piece)
        .join(''),
    ).toBe(answer)
    for (const update of updates) {
      expect(JSON.stringify(update).length).toBeLessThan(LONG_STRING_CHARS + 200)
    }
  })
})
