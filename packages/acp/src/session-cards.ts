// SessionCards: the card updates of one agent session's tool calls — a call's card held at its
// call, opened when it is asked about or starts, its live output, its result, and the cards a
// turn left open closed at its end (./tool-cards keeps the state). An ACP session has one for
// its own agent and one per child session it shows (whose wire ids start with the child's id,
// so they never meet the parent's, and whose cards carry `_meta.dsh.parentToolCallId`, the wire
// id of the call that started the child, so a client that nests can nest). Returns updates;
// never sends them.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionEvent, TurnEndReason } from '@deepseek-ai/dsh-agent'
import { withoutQuietCard } from './plan'
import { presentSessionEvent } from './presenter'
import type { AcpPresenterContext } from './presenter'
import { toAcpTerminalEnd } from './terminal-cards'
import { toAcpContent, toAcpPath, toAcpUnfinishedToolCall } from './to-acp'
import type { AcpToolCall, AcpToolCallUpdate } from './to-acp'
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

export class SessionCards {
  readonly cards: ToolCards

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
        cards.hold(key, opening as AcpToolCall, terminalCwd, quiet)
        return []
      }
      case 'tool/output':
        return cards.output(key, event.text)
      case 'tool/status':
        return cards.waiting(key, event.text)
      case 'tool/content':
        return cards.content(key, event.text)
      case 'tool/asked':
        return cards.ask(key, toAcpContent(event.preview, presenter.cwd))
      case 'tool/started':
        return cards.start(key)
      case 'tool/result': {
        const { wireId, opening, terminal, quiet } = cards.finish(key)
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
    return updates.map((update) =>
      update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update'
        ? { ...update, _meta: { ...update._meta, dsh: { parentToolCallId } } }
        : update,
    )
  }
}
