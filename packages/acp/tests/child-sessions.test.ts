// The replay of a stored session with its delegates (ChildSessions.replay), pure: each child
// matched to the call that started it (in turn, when a model repeated the call id), a
// grandchild under its parent's card; as nested cards on the session itself, or as subagent
// sessions (an announcement with the final state after the card, the thread on its own id).
import type { StoredChildSession, StoredSessionEvent } from '@deepseek-ai/dsh-agent'
import { testSession } from '@deepseek-ai/dsh-tools/testing'
import { describe, expect, it } from 'vitest'
import { ChildSessions } from '../src/sessions/child-sessions'
import type { AcpRoutedUpdate } from '../src/sessions/child-sessions'
import { SessionCards } from '../src/cards/session-cards'

const cwd = '/w'
const presenter = { cwd }

/** A turn that makes call `callId` (a task, or a read) and ends. */
function turn(
  turnId: string,
  callId: string,
  name = 'task',
  end = 'completed',
): StoredSessionEvent[] {
  return [
    { type: 'turn/start', turnId },
    { type: 'user/message', turnId, text: `go ${turnId}` },
    {
      type: 'tool/call',
      turnId,
      callId,
      name,
      arguments: {},
      presentation: { title: `${name} ${callId}`, kind: 'other' },
    },
    { type: 'tool/started', turnId, callId },
    {
      type: 'tool/result',
      turnId,
      callId,
      name,
      content: [{ type: 'text', text: `${callId} done` }],
      isError: false,
    },
    { type: 'turn/end', turnId, reason: end as 'completed' },
  ]
}

function child(
  id: string,
  parent: string,
  parentCallId: string,
  events: StoredSessionEvent[],
): StoredChildSession {
  const header = {
    id,
    cwd,
    roots: [cwd],
    parent,
    parentCallId,
    title: `task ${id}`,
    createdAt: `2026-01-01T00:00:0${id.length}.000Z`,
    updatedAt: '2026-01-01T00:01:00.000Z',
  }
  return { header, events }
}

/** p made call t1 twice (two requests); its first delegate a started a grandchild g. */
const parentEvents = [...turn('u1', 't1'), ...turn('u2', 't1')]
const stored: Record<string, StoredChildSession[]> = {
  p: [
    child('a', 'p', 't1', turn('a1', 'k1')),
    child('bb', 'p', 't1', turn('b1', 'r1', 'read', 'cancelled')),
  ],
  a: [child('g', 'a', 'k1', turn('g1', 'r9', 'read'))],
}

function replayed(subagents: boolean): AcpRoutedUpdate[] {
  const root = testSession({ id: 'p', cwd, roots: [cwd] })
  const rootCards = new SessionCards(false, presenter)
  const children = new ChildSessions({
    root,
    rootCards,
    presenter,
    terminals: false,
    subagents,
    sendOn: () => undefined,
    isClosed: () => false,
  })
  return children.replay('p', parentEvents, rootCards.cards, (id) => stored[id] ?? [])
}

const cards = (routed: AcpRoutedUpdate[]) =>
  routed.flatMap(({ sessionId, update }) =>
    update.sessionUpdate === 'tool_call'
      ? [[sessionId, update.toolCallId, update.status, update._meta?.dsh]]
      : [],
  )

describe('the replay of a session with delegates', () => {
  it('nests each delegate’s cards under the card of its call, a grandchild under its parent’s', () => {
    const routed = replayed(false)
    expect(routed.every(({ sessionId }) => sessionId === 'p')).toBe(true)
    expect(cards(routed)).toEqual([
      ['p', 't1', 'completed', undefined],
      ['p', 'a/k1', 'completed', { parentToolCallId: 't1' }],
      ['p', 'g/r9', 'completed', { parentToolCallId: 'a/k1' }],
      ['p', 't1#2', 'completed', undefined],
      ['p', 'bb/r1', 'completed', { parentToolCallId: 't1#2' }],
    ])
    // Only cards of the delegates: not their prompts nor their words.
    expect(
      routed.filter(({ update }) => update.sessionUpdate === 'user_message_chunk'),
    ).toHaveLength(2)
  })

  it('announces each delegate after its card, its final state in it, and replays its thread on its own id', () => {
    const routed = replayed(true)
    const announcements = routed.flatMap(({ sessionId, update }) =>
      update.sessionUpdate === 'subagent_update'
        ? [[sessionId, update.sessionId, update.title, update.state, update._meta?.dsh]]
        : [],
    )
    expect(announcements).toEqual([
      ['p', 'a', 'task a', { state: 'idle', stopReason: 'end_turn' }, { parentToolCallId: 't1' }],
      [
        'p',
        'bb',
        'task bb',
        { state: 'idle', stopReason: 'cancelled' },
        { parentToolCallId: 't1#2' },
      ],
      ['a', 'g', 'task g', { state: 'idle', stopReason: 'end_turn' }, { parentToolCallId: 'k1' }],
    ])
    expect(cards(routed)).toEqual([
      ['p', 't1', 'completed', undefined],
      ['p', 't1#2', 'completed', undefined],
      ['a', 'k1', 'completed', undefined],
      ['bb', 'r1', 'completed', undefined],
      ['g', 'r9', 'completed', undefined],
    ])
    // Each session's announcement goes before any update on its own id.
    for (const id of ['a', 'bb', 'g']) {
      const announced = routed.findIndex(
        ({ update }) => update.sessionUpdate === 'subagent_update' && update.sessionId === id,
      )
      const first = routed.findIndex(({ sessionId }) => sessionId === id)
      expect(announced).toBeGreaterThanOrEqual(0)
      expect(announced).toBeLessThan(first)
    }
    const prompts = routed.flatMap(({ sessionId, update }) =>
      update.sessionUpdate === 'user_message_chunk' && update.content.type === 'text'
        ? [[sessionId, update.content.text]]
        : [],
    )
    expect(prompts).toEqual([
      ['p', 'go u1'],
      ['p', 'go u2'],
      ['a', 'go a1'],
      ['bb', 'go b1'],
      ['g', 'go g1'],
    ])
  })
})
