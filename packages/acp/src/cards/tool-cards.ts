// ToolCards: the tool-call cards of one session between a call and its result. Each card gets a
// wire id unique in the session (the model's call id while it is new, else `<id>#2`, `<id>#3`,
// …: models repeat ids across requests) and is HELD at its call: its opening `tool_call` goes
// out when the call starts running (`in_progress`), when a person is asked about it
// (`pending`, with the preview of what it would do), or at its result when neither happened
// (`pending`: it never ran — refused, rejected, bad arguments). So a card that is asked about
// opens `pending`, as ACP wants, and a card that runs without asking opens `in_progress`.
// A card whose call runs a command shows its live output (./terminal-cards) while it runs.
// Pure bookkeeping: it returns the updates to send and never sends them.
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk'
import {
  lastChars,
  toAcpConsoleTail,
  toAcpTerminalCall,
  toAcpTerminalOutput,
} from './terminal-cards'
import type { AcpToolCall, AcpToolCallUpdate } from '../wire/to-acp'
import { toAcpPendingToolCall } from './permission-card'

type CardState = 'held' | 'pending' | 'running'

interface Card {
  wireId: string
  /** The card's opening `tool_call`, as the presenter built it. */
  opening: AcpToolCall
  state: CardState
  /** The `pending` card as it went out when a person was asked about the call. */
  asked?: AcpToolCall
  /** Set for a call that runs a command: its output shows live. */
  terminal?: TerminalCard
  /** The call shows itself through the plan it sets: no card unless it fails (./plan). */
  quiet?: boolean
  /** The title while a person is asked about the call (ToolCallPresentation.askTitle). */
  askTitle?: string
}

interface TerminalCard {
  /** The card's own content, which the output follows. */
  lead: ToolCallContent[]
  /** Output went out live (as terminal output). */
  streamed: boolean
  /** The output's tail, for a client without terminals. */
  tail: string
}

/** What `finish` tells of a terminal card, to close it. */
export interface FinishedTerminal {
  lead: ToolCallContent[]
  streamed: boolean
}

/** How a card is held: see ToolCards.hold. */
export interface HeldCard {
  terminalCwd?: string | undefined
  quiet?: boolean
  askTitle?: string | undefined
}

/** The opening a person is asked with: under the ask title, its summary not repeated. */
function askedOpening(card: Card): AcpToolCall {
  const { opening, askTitle } = card
  if (askTitle === undefined) return opening
  const [first, ...rest] = opening.content ?? []
  const repeats =
    first?.type === 'content' && first.content.type === 'text' && first.content.text === askTitle
  const content = repeats ? rest : (opening.content ?? [])
  const { content: _content, ...rest_ } = opening
  return { ...rest_, title: askTitle, ...(content.length > 0 && { content }) }
}

export class ToolCards {
  /** Open cards by the model's call id. */
  private readonly open = new Map<string, Card>()
  /** Every wire id this session has used. */
  private readonly used = new Set<string>()

  /** `terminals`: the client shows terminals (see ./terminal-cards). */
  constructor(private readonly terminals = false) {}

  /** The client shows terminals. */
  get showsTerminals(): boolean {
    return this.terminals
  }

  /** A wire id for a new call of model id `callId`: the id itself while it is new here. */
  wireIdFor(callId: string): string {
    let wireId = callId
    for (let n = 2; this.used.has(wireId); n++) wireId = `${callId}#${n}`
    this.used.add(wireId)
    return wireId
  }

  /**
   * Holds the card of a call until it runs, is asked about, or ends. `terminalCwd`: the call
   * runs a command there, and its output shows live; `askTitle`: its title while asked about.
   */
  hold(callId: string, opening: AcpToolCall, how: HeldCard = {}): void {
    const { terminalCwd, quiet = false, askTitle } = how
    const card: Card = { wireId: opening.toolCallId, opening, state: 'held', quiet }
    if (askTitle !== undefined) card.askTitle = askTitle
    if (terminalCwd !== undefined) {
      card.terminal = { lead: [...(opening.content ?? [])], streamed: false, tail: '' }
      if (this.terminals) card.opening = toAcpTerminalCall(opening, terminalCwd)
    }
    this.open.set(callId, card)
  }

  /** A piece of a running call's output: a terminal update, or the console tail replaced. */
  output(callId: string, text: string): SessionUpdate[] {
    const card = this.open.get(callId)
    const terminal = card?.terminal
    if (card === undefined || terminal === undefined || card.state !== 'running') return []
    if (this.terminals) {
      terminal.streamed = true
      return [toAcpTerminalOutput(card.wireId, text)]
    }
    terminal.tail = lastChars(terminal.tail + text)
    return [toAcpConsoleTail(card.wireId, terminal.lead, terminal.tail)]
  }

  /** The running call's content so far (a delegate's calls), after the card's own content. */
  content(callId: string, text: string): SessionUpdate[] {
    const card = this.open.get(callId)
    if (card === undefined || card.state !== 'running') return []
    const content: ToolCallContent[] = [
      ...(card.opening.content ?? []),
      { type: 'content', content: { type: 'text', text } },
    ]
    return [{ sessionUpdate: 'tool_call_update', toolCallId: card.wireId, content }]
  }

  /** The wire id of the open card of model call `callId`. */
  wireIdOf(callId: string): string | undefined {
    return this.open.get(callId)?.wireId
  }

  /** The call got past every gate and runs now. */
  start(callId: string): SessionUpdate[] {
    const card = this.open.get(callId)
    if (card === undefined || card.state === 'running') return []
    // A quiet card stays held: it opens only should its call fail (see finish).
    if (card.quiet === true && card.state === 'held') return []
    const before = card.state
    card.state = 'running'
    if (before === 'held') return [{ ...card.opening, status: 'in_progress' }]
    const update: AcpToolCallUpdate = {
      sessionUpdate: 'tool_call_update',
      toolCallId: card.wireId,
      status: 'in_progress',
    }
    // Asked under its own title: the card takes its title and content back as it runs.
    if (card.askTitle === undefined) return [update]
    const { title, content } = card.opening
    return [{ ...update, title, ...(content && { content }) }]
  }

  /**
   * Where the running call is, or what it waits on (a server's progress, the editor applying a
   * change): its title says so until the result's title replaces it.
   */
  waiting(callId: string, text: string): SessionUpdate[] {
    const card = this.open.get(callId)
    if (card === undefined || card.state !== 'running') return []
    const title = `${card.opening.title} (${text})`
    return [{ sessionUpdate: 'tool_call_update', toolCallId: card.wireId, title }]
  }

  /** A person is asked about the call: a held card opens `pending` with the preview. */
  ask(callId: string, preview: readonly ToolCallContent[]): SessionUpdate[] {
    const card = this.open.get(callId)
    if (card === undefined || card.state !== 'held') return []
    card.state = 'pending'
    card.asked = toAcpPendingToolCall(askedOpening(card), preview)
    return [card.asked]
  }

  /** The `pending` card of model call `callId` as it went out when it was asked about. */
  askedCardOf(callId: string): AcpToolCall | undefined {
    return this.open.get(callId)?.asked
  }

  /** The call ended: its card is closed; a card never opened opens `pending` first. */
  finish(callId: string): {
    wireId: string
    opening: SessionUpdate[]
    terminal?: FinishedTerminal
    quiet?: boolean
  } {
    const card = this.open.get(callId)
    if (card === undefined) return { wireId: callId, opening: [] }
    this.open.delete(callId)
    const { terminal } = card
    return {
      wireId: card.wireId,
      opening: this.openingOf(card),
      ...(terminal && { terminal: { lead: terminal.lead, streamed: terminal.streamed } }),
      ...(card.quiet === true && card.state === 'held' && { quiet: true }),
    }
  }

  /** Every card still open (its turn ended without its result), oldest first; all are closed. */
  takeAll(): { wireId: string; opening: SessionUpdate[] }[] {
    const cards = [...this.open.values()]
    this.open.clear()
    return cards.map((card) => ({ wireId: card.wireId, opening: this.openingOf(card) }))
  }

  private openingOf(card: Card): SessionUpdate[] {
    return card.state === 'held' ? [{ ...card.opening, status: 'pending' }] : []
  }
}
