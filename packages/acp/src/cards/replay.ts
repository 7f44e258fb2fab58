// What a stored session replays as, built once per card: its events with each run of streamed
// text joined, and each card as ONE `tool_call` in the state it ended in. A model streams an
// answer in many small pieces and the log keeps each as it came, and a live card went out as an
// opening and updates (so a live turn and a stored one are logged alike); a person reopening
// the thread needs the answers and the cards as they ended, so a long session replays in a
// fraction of the updates it took live. A command's card for a client that shows terminals is
// the exception: a terminal takes output only as it comes, so it replays as the card opening,
// its stored output and its end. No frame is larger than a live one: a person's message is
// clipped as a card's strings are (one that embedded a whole file replays as its head), and a
// joined answer goes in pieces of at most that length. Pure: no connection, no Cordis.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionEvent, TurnEndReason } from '@deepseek-ai/dsh-agent'
import { LONG_STRING_CHARS, clipLongString } from '@deepseek-ai/dsh-tools'
import { presentSessionEvent } from './presenter'
import type { AcpPresenterContext } from './presenter'
import { toAcpTerminalEnd } from './terminal-cards'
import { toAcpPath, toAcpUnfinishedToolCall } from '../wire/to-acp'
import type { AcpToolCall, AcpToolCallUpdate } from '../wire/to-acp'
import type { ToolCards } from './tool-cards'
import type { AcpWireUpdate } from './subagent-updates'

type Chunk = Extract<SessionEvent, { type: 'assistant/chunk' }>

/** The events of a stored session, each run of same-kind text chunks of a turn joined. */
export function* joinChunks(events: Iterable<SessionEvent>): Generator<SessionEvent> {
  let run: Chunk | undefined
  let pieces: string[] = []
  const joined = (): Chunk => {
    const chunk = run as Chunk
    const text = pieces.length === 1 ? chunk.text : pieces.join('')
    run = undefined
    pieces = []
    return { ...chunk, text }
  }
  for (const event of events) {
    if (event.type === 'assistant/chunk') {
      if (run !== undefined && run.kind === event.kind && run.turnId === event.turnId) {
        pieces.push(event.text)
        continue
      }
      if (run !== undefined) yield joined()
      run = event
      pieces = [event.text]
      continue
    }
    if (run !== undefined) yield joined()
    yield event
  }
  if (run !== undefined) yield joined()
}

/** A card in the state it ended in: its opening with what its closing update changed. */
export function toAcpFinishedToolCall(
  opening: AcpToolCall,
  closing: AcpToolCallUpdate,
): AcpToolCall {
  const { sessionUpdate: _update, toolCallId: _id, ...changes } = closing
  return { ...opening, ...changes } as AcpToolCall
}

/** A call's opening card, held until its result closes it (a card is shown once, as it ended). */
function holdCall(
  event: Extract<SessionEvent, { type: 'tool/call' }>,
  cards: ToolCards,
  presenter: AcpPresenterContext,
): void {
  const callId = cards.wireIdFor(event.callId)
  const [opening] = presentSessionEvent({ ...event, callId }, presenter)
  const terminal = event.presentation?.terminal
  const terminalCwd = terminal && toAcpPath(terminal.cwd ?? presenter.cwd, presenter.cwd)
  const quiet = event.presentation?.quiet === true
  cards.hold(event.callId, opening as AcpToolCall, { terminalCwd, quiet })
}

/** A call's card as it ended, then what follows it (a plan it set, a child's cards). */
function* replayResult(
  event: Extract<SessionEvent, { type: 'tool/result' }>,
  cards: ToolCards,
  presenter: AcpPresenterContext,
  nested: ((callId: string, wireId: string) => Iterable<AcpWireUpdate>) | undefined,
): Generator<AcpWireUpdate> {
  const { wireId, opening, terminal, quiet } = cards.finish(event.callId)
  // The closing card, then what follows it (a plan the call set).
  const [closing, ...after] = presentSessionEvent({ ...event, callId: wireId }, presenter)
  const end = event.presentation?.terminal
  if (quiet === true && after.some((update) => update.sessionUpdate === 'plan')) {
    yield* after // a quiet call that set the plan: the plan alone, as it went live
    return
  }
  if (terminal !== undefined && end !== undefined && cards.showsTerminals) {
    // A terminal shows output only as it comes: the card opens, its output, its end.
    const [card] = opening
    if (card !== undefined) yield { ...card, status: 'in_progress' } as SessionUpdate
    yield* toAcpTerminalEnd(closing as AcpToolCallUpdate, terminal.lead, end, false)
  } else {
    yield finished(opening, closing as AcpToolCallUpdate)
  }
  yield* after
  if (nested !== undefined) yield* nested(event.callId, wireId)
}

/**
 * The updates a stored session replays as, in order: the person's messages (their images
 * after their text; for a slash command, what they typed), each answer and
 * thought in one chunk, each card once as it ended; a card whose turn ended without its result
 * (the process died in it) ends failed; the session's latest usage last, once. `cards` gives the wire ids (and keeps them used, so
 * calls after the load never reuse one). `nested`: what follows a call's ended card (the
 * cards of the child session it started, or its announcement), given its model and wire ids.
 */
export function* replayUpdates(
  events: Iterable<SessionEvent>,
  cards: ToolCards,
  presenter: AcpPresenterContext,
  nested?: (callId: string, wireId: string) => Iterable<AcpWireUpdate>,
): Generator<AcpWireUpdate> {
  /** The turns whose person typed a command: their made message is not theirs to show. */
  const typed = new Set<string>()
  /** Only the latest usage goes out, after everything else: it is the context now. */
  let usage: SessionEvent | undefined
  for (const event of joinChunks(events)) {
    switch (event.type) {
      case 'turn/start':
        if (event.prompt === undefined) break
        typed.add(event.turnId)
        yield toAcpUserText(event.prompt)
        break
      case 'context/usage':
        usage = event
        break
      case 'user/message': {
        if (typed.has(event.turnId)) break
        yield toAcpUserText(event.text)
        for (const { mimeType, data } of event.images ?? []) {
          yield { sessionUpdate: 'user_message_chunk', content: { type: 'image', mimeType, data } }
        }
        break
      }
      case 'assistant/chunk':
        for (const text of piecesOf(event.text, LONG_STRING_CHARS)) {
          yield* presentSessionEvent({ ...event, text }, presenter)
        }
        break
      case 'tool/call':
        holdCall(event, cards, presenter)
        break
      case 'tool/asked':
      case 'tool/started':
        // The card is shown once, as it ended.
        break
      case 'tool/result':
        yield* replayResult(event, cards, presenter, nested)
        break
      case 'turn/end':
        yield* presentSessionEvent(event, presenter)
        yield* unfinished(cards, event.reason)
        break
      default:
        yield* presentSessionEvent(event, presenter)
    }
  }
  yield* unfinished(cards, 'error')
  if (usage !== undefined) yield* presentSessionEvent(usage, presenter)
}

/** A person's message, clipped as a card's strings are. */
function toAcpUserText(text: string): SessionUpdate {
  return {
    sessionUpdate: 'user_message_chunk',
    content: { type: 'text', text: clipLongString(text) },
  }
}

/** `text` in pieces of at most `max` code units, never splitting a surrogate pair. */
export function* piecesOf(text: string, max: number): Generator<string> {
  let start = 0
  while (text.length - start > max) {
    let end = start + max
    const last = text.charCodeAt(end - 1)
    if (last >= 0xd800 && last <= 0xdbff) end--
    yield text.slice(start, end)
    start = end
  }
  yield text.slice(start)
}

function finished(opening: readonly SessionUpdate[], closing: AcpToolCallUpdate): SessionUpdate {
  const [card] = opening
  return card?.sessionUpdate === 'tool_call' ? toAcpFinishedToolCall(card, closing) : closing
}

function* unfinished(cards: ToolCards, reason: TurnEndReason): Generator<SessionUpdate> {
  for (const { wireId, opening } of cards.takeAll()) {
    yield finished(opening, toAcpUnfinishedToolCall(wireId, reason))
  }
}
