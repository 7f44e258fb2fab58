// The checks and the safety net around one turn of an Agent: what `send` refuses before
// anything is logged (disposed, empty, busy), and the guard that logs turn/start and turns an
// unexpected throw into the turn's outcome, so turn/end is logged exactly once whatever happens.
import { AgentError } from '../errors'
import type { TurnOutcome } from './loop'
import { errorMessage } from './model-stream'
import type { SessionEvent } from '../types'

/** What a turn is refused for: throws AGENT_DISPOSED, AGENT_EMPTY_MESSAGE or AGENT_BUSY. */
export function assertCanSend(state: { disposed: boolean; running: boolean }, text: unknown): void {
  if (state.disposed) {
    throw new AgentError('AGENT_DISPOSED', 'This agent was disposed; create a new one.')
  }
  if (typeof text !== 'string' || text.trim() === '') {
    const message = 'send(text) needs a message with some text; nothing was sent.'
    throw new AgentError('AGENT_EMPTY_MESSAGE', message)
  }
  if (state.running) {
    const message =
      'A turn is already running for this session; wait for it to end or cancel it first.'
    throw new AgentError('AGENT_BUSY', message)
  }
}

/** Plays one turn after logging its turn/start; never rejects. */
export async function guardTurn(
  append: (event: SessionEvent) => void,
  turn: { id: string; signal: AbortSignal; typed: string | undefined },
  play: (turnId: string, signal: AbortSignal) => Promise<TurnOutcome>,
): Promise<TurnOutcome> {
  const { id: turnId, signal, typed } = turn
  try {
    append({ type: 'turn/start', turnId, ...(typed !== undefined && { prompt: typed }) })
    return await play(turnId, signal)
  } catch (error) {
    // The loop turns model and tool failures into outcomes; anything else (a service gone
    // missing, a listener-error handler that throws) still ends the turn exactly once.
    if (signal.aborted) return { reason: 'cancelled' }
    return { reason: 'error', error: errorMessage(error) }
  }
}

/** Tells each listener of a child session; a listener that throws is skipped. */
export function announceChild<C>(listeners: Iterable<(child: C) => void>, child: C): void {
  for (const listener of [...listeners]) {
    try {
      listener(child)
    } catch {
      // A host's listener broke: the child runs on, only unshown by that host.
    }
  }
}
