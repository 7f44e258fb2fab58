// The cards of one session: wire ids unique in the session, and the opening of each card at
// the right moment — running, asked about, or at its result when it never ran.
import { describe, expect, it } from 'vitest'
import { ToolCards } from '../src/cards/tool-cards'
import type { AcpToolCall } from '../src/wire/to-acp'

const opening = (toolCallId: string): AcpToolCall => ({
  sessionUpdate: 'tool_call',
  toolCallId,
  title: 'Write a.txt',
  kind: 'edit',
  status: 'in_progress',
  content: [{ type: 'content', content: { type: 'text', text: 'summary' } }],
})

function held(cards: ToolCards, callId: string): string {
  const wireId = cards.wireIdFor(callId)
  cards.hold(callId, opening(wireId))
  return wireId
}

const diff = { type: 'diff' as const, path: '/w/a.txt', oldText: null, newText: 'x' }

describe('wire ids', () => {
  it('keep a new model id and number a repeated one', () => {
    const cards = new ToolCards()
    expect(held(cards, 'c1')).toBe('c1')
    cards.finish('c1')
    expect(held(cards, 'c1')).toBe('c1#2')
    expect(cards.wireIdOf('c1')).toBe('c1#2')
  })
})

describe('opening a card', () => {
  it('a call that starts opens its card in_progress, once', () => {
    const cards = new ToolCards()
    held(cards, 'c1')
    expect(cards.start('c1')).toEqual([{ ...opening('c1'), status: 'in_progress' }])
    expect(cards.start('c1')).toEqual([])
    expect(cards.finish('c1').opening).toEqual([])
  })

  it('a call asked about opens pending with the preview, then goes in_progress when allowed', () => {
    const cards = new ToolCards()
    held(cards, 'c1')
    expect(cards.ask('c1', [diff])).toEqual([
      {
        ...opening('c1'),
        status: 'pending',
        content: [...(opening('c1').content ?? []), diff],
      },
    ])
    expect(cards.start('c1')).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' },
    ])
  })

  it('a call that never ran opens pending at its result; an asked one is already open', () => {
    const cards = new ToolCards()
    held(cards, 'c1')
    held(cards, 'c2')
    cards.ask('c2', [])
    expect(cards.finish('c1')).toEqual({
      wireId: 'c1',
      opening: [{ ...opening('c1'), status: 'pending' }],
    })
    expect(cards.finish('c2')).toEqual({ wireId: 'c2', opening: [] })
  })

  it('takes every open card at the end of a turn, opening those never sent', () => {
    const cards = new ToolCards()
    held(cards, 'c1')
    held(cards, 'c2')
    cards.start('c2')
    expect(cards.takeAll()).toEqual([
      { wireId: 'c1', opening: [{ ...opening('c1'), status: 'pending' }] },
      { wireId: 'c2', opening: [] },
    ])
    expect(cards.takeAll()).toEqual([])
  })
})
