// SessionCards: the card updates of one agent session's tool calls — a call's card held at its
// call, opened when it is asked about or starts, its live output, its result, and the cards a
// turn left open closed at its end (./tool-cards keeps the state). An ACP session has one for
// its own agent and one per child session it shows (whose wire ids start with the child's id,
// so they never meet the parent's, and whose cards carry `_meta.dsh.parentToolCallId`, the wire
// id of the call that started the child, so a client that nests can nest). A call whose card
// goes on growing after its result (a background task's) gets its content on the card it ended
// on. Returns updates; never sends them.
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk'
import type { SessionEvent, TurnEndReason } from '@deepseek-ai/dsh-agent'
import { withoutQuietCard } from './plan'
import { presentSessionEvent } from './presenter'
import type { AcpPresenterContext } from './presenter'
import { toAcpTerminalEnd } from './terminal-cards'
import { toAcpContent, toAcpPath, toAcpUnfinishedToolCall } from '../wire/to-acp'
import type { AcpToolCall, AcpToolCallUpdate } from '../wire/to-acp'
import { ToolCards } from './tool-cards'

type ToolEvent = Extract<
  SessionEvent,
  {
    type:
      | 'tool/call'
      | 'tool/output'
      | 'tool/status'
      | 'tool/content'
      | 'tool/asked'
      | 'tool/started'
      | 'tool/result'
  }
>

export function isToolEvent(event: SessionEvent): event is ToolEvent {
  return event.type.startsWith('tool/')
}

/** The ended calls whose cards may still grow (a background task's) that a session remembers. */
export const ENDED_CARDS = 256

export class SessionCards {
  readonly cards: ToolCards
  /** The wire ids of the latest ended calls, by `<turn id> <call key>`. */
  private readonly ended = new Map<string, string>()

  /**
   * `prefix`: put before every call id (a child session's `<id>/`); none for the session's own.
   * `parentToolCallId`: a child session's, the wire id of the call that started it.
   */
  constructor(
    terminals: boolean,
    private readonly presenter: AcpPresenterContext,
    private readonly prefix = '',
    private readonly parentToolCallId?: string,
  ) {
    this.cards = new ToolCards(terminals)
  }

  /** The wire id of the open card of call `callId` (the model's id). */
  wireIdOf(callId: string): string | undefined {
    return this.cards.wireIdOf(this.prefix + callId)
  }

  /** The `pending` card of call `callId` as it went out when a person was asked about it. */
  askedCardOf(callId: string): AcpToolCall | undefined {
    return this.cards.askedCardOf(this.prefix + callId)
  }

  /** The updates of one tool event, in order. */
  updatesOf(event: ToolEvent): SessionUpdate[] {
    return this.tagged(this.untaggedUpdatesOf(event))
  }

  private untaggedUpdatesOf(event: ToolEvent): SessionUpdate[] {
    const { cards, presenter } = this
    const key = this.prefix + event.callId
    switch (event.type) {
      case 'tool/call': {
        const callId = cards.wireIdFor(key)
        const [opening] = this.tagged(presentSessionEvent({ ...event, callId }, presenter))
        const terminal = event.presentation?.terminal
        const terminalCwd = terminal && toAcpPath(terminal.cwd ?? presenter.cwd, presenter.cwd)
        const quiet = event.presentation?.quiet === true
        cards.hold(key, opening as AcpToolCall, {
          terminalCwd,
          quiet,
          askTitle: event.presentation?.askTitle,
        })
        return []
      }
      case 'tool/output':
        return cards.output(key, event.text)
      case 'tool/status':
        return cards.waiting(key, event.text)
      case 'tool/content':
        if (cards.wireIdOf(key) !== undefined) return cards.content(key, event.text)
        return this.lateContent(event.turnId, key, event.text)
      case 'tool/asked':
        return cards.ask(key, toAcpContent(event.preview, presenter.cwd))
      case 'tool/started':
        return cards.start(key)
      case 'tool/result': {
        const { wireId, opening, terminal, quiet } = cards.finish(key)
        this.remember(event.turnId, key, wireId)
        let updates = presentSessionEvent({ ...event, callId: wireId }, presenter)
        const end = event.presentation?.terminal
        if (terminal && end && cards.showsTerminals) {
          const [result] = updates as AcpToolCallUpdate[]
          if (result) updates = toAcpTerminalEnd(result, terminal.lead, end, terminal.streamed)
        }
        return withoutQuietCard(opening, updates, quiet)
      }
    }
  }

  /**
   * The content of a call that goes on after its result (a background task's card), replacing
   * the card's; none for a call this session no longer remembers.
   */
  private lateContent(turnId: string, key: string, text: string): SessionUpdate[] {
    const toolCallId = this.ended.get(`${turnId} ${key}`)
    if (toolCallId === undefined) return []
    const content: ToolCallContent[] = [{ type: 'content', content: { type: 'text', text } }]
    return [{ sessionUpdate: 'tool_call_update', toolCallId, content }]
  }

  /** Remembers the wire id of an ended call, the latest ENDED_CARDS of them. */
  private remember(turnId: string, key: string, wireId: string): void {
    this.ended.set(`${turnId} ${key}`, wireId)
    if (this.ended.size <= ENDED_CARDS) return
    const oldest = this.ended.keys().next().value
    if (oldest !== undefined) this.ended.delete(oldest)
  }

  /** The card of call `callId` says what it waits on (the editor applying a change). */
  waiting(callId: string, text: string): SessionUpdate[] {
    return this.tagged(this.cards.waiting(this.prefix + callId, text))
  }

  /** Closes the cards a turn left open (a cancelled turn, or a process that ended in it). */
  closeOpen(reason: TurnEndReason): SessionUpdate[] {
    return this.tagged(
      this.cards
        .takeAll()
        .flatMap(({ wireId, opening }) => [...opening, toAcpUnfinishedToolCall(wireId, reason)]),
    )
  }

  /** A child session's card updates name the call that started it (`_meta.dsh`). */
  private tagged<T extends SessionUpdate>(updates: T[]): T[] {
    const parentToolCallId = this.parentToolCallId
    if (parentToolCallId === undefined) return updates
    return tagParentCall(updates, parentToolCallId)
  }
}

/**
 * Card updates of a child session tagged with the wire id of the call that started it
 * (`_meta.dsh.parentToolCallId`); a card tagged already (a grandchild's) keeps its tag.
 */
export function tagParentCall<T extends SessionUpdate>(
  updates: readonly T[],
  parentToolCallId: string,
): T[] {
  return updates.map((update) => {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') {
      return update
    }
    const meta = update._meta as { dsh?: { parentToolCallId?: string } } | null | undefined
    if (meta?.dsh?.parentToolCallId !== undefined) return update
    return { ...update, _meta: { ...update._meta, dsh: { parentToolCallId } } }
  })
}
