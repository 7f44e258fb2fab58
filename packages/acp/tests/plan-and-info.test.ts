// A result that set the plan (a compact card, then the `plan` update), and the session's info
// updates: its title once, its activity at each live turn end, the stored title after a replay.
import { describe, expect, it } from 'vitest'
import type { SessionEvent, SessionHeader } from '@deepseek-ai/dsh-agent'
import { presentSessionEvent } from '../src/cards/presenter'
import { SessionInfoUpdates } from '../src/cards/session-info'

const context = { cwd: '/w' }
const plan = [
  { content: 'Read', status: 'completed', priority: 'medium' },
  { content: 'Fix', status: 'in_progress', priority: 'high' },
] as const

function planResult(isError: boolean): SessionEvent {
  return {
    type: 'tool/result',
    turnId: 't',
    callId: 'p1',
    name: 'todo',
    content: [{ type: 'text', text: 'Plan updated: 1 of 2 done.' }],
    isError,
    presentation: isError ? undefined : { title: 'Update plan (1 of 2 done)', plan: [...plan] },
  }
}

describe('a result that set the plan', () => {
  it('closes its card without the list as text, then sends the whole plan', () => {
    expect(presentSessionEvent(planResult(false), context)).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'p1',
        status: 'completed',
        title: 'Update plan (1 of 2 done)',
      },
      { sessionUpdate: 'plan', entries: plan },
    ])
  })

  it('a failed call sends no plan and keeps its error text', () => {
    const updates = presentSessionEvent(planResult(true), context)
    expect(updates.map((update) => update.sessionUpdate)).toEqual(['tool_call_update'])
    expect(JSON.stringify(updates)).toContain('Plan updated')
  })
})

describe('session info updates', () => {
  const header = (): SessionHeader => ({ id: 's', cwd: '/w', roots: ['/w'], createdAt: 'x' })
  const now = () => new Date('2026-12-03T10:00:00.000Z')
  const message: SessionEvent = { type: 'user/message', turnId: 't', text: 'Fix it' }
  const end: SessionEvent = { type: 'turn/end', turnId: 't', reason: 'completed' }

  it('the title goes out once, when the first message brings it', () => {
    const live = header()
    const info = new SessionInfoUpdates(live, now)
    expect(info.onLive({ type: 'turn/start', turnId: 't' })).toEqual([])
    live.title = 'Fix it'
    expect(info.onLive(message)).toEqual([
      { sessionUpdate: 'session_info_update', title: 'Fix it' },
    ])
    expect(info.onLive({ ...message, text: 'and more' })).toEqual([])
  })

  it('each live turn end sends the time of the last activity', () => {
    const info = new SessionInfoUpdates(header(), now)
    expect(info.onLive(end)).toEqual([
      { sessionUpdate: 'session_info_update', updatedAt: '2026-12-03T10:00:00.000Z' },
    ])
  })

  it('a loaded session sends its stored title once, after the replay', () => {
    const info = new SessionInfoUpdates({ ...header(), title: 'Stored title' }, now)
    expect(info.replayed()).toEqual([
      { sessionUpdate: 'session_info_update', title: 'Stored title' },
    ])
    expect(info.onLive(message)).toEqual([])
    expect(new SessionInfoUpdates(header(), now).replayed()).toEqual([])
  })
})
