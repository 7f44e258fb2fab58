// The program's side of the start's front (./front): the connection's stream as the stack should
// see it when the front may have answered the client's opening. The stack handles every request,
// those the front answered too; its answer to one of those is not sent again but checked: a
// `session/new` whose modes or options moved since they were kept is set right with
// `current_mode_update` and `config_option_update`, anything else that differs or fails is
// reported. The stack's answers to the first `initialize` and `session/new`, when new or
// different, are kept for the next start (the handoff's `remember`).
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk'
import type { FrontAnswered, FrontHandoff } from './front-handoff'

type Id = string | number | null

/** `stream` with the front's answers accounted for; `report` hears what could not be set right. */
export function tapFront(
  stream: Stream,
  front: FrontHandoff,
  report: (problem: string) => void,
): Stream {
  // The first request of each, until its answer goes by (a client may reuse an id after that).
  let initialize: { id: Id; params: string } | undefined
  let sessionNew: { id: Id } | undefined
  const seen = { initialize: false, sessionNew: false }
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        if ('method' in message && 'id' in message) {
          if (message.method === 'initialize' && !seen.initialize) {
            seen.initialize = true
            initialize = { id: message.id, params: JSON.stringify(message.params ?? null) }
          } else if (message.method === 'session/new' && !seen.sessionNew) {
            seen.sessionNew = true
            sessionNew = { id: message.id }
          }
        }
        controller.enqueue(message)
      },
    }),
  )

  const given = (id: Id, method: FrontAnswered['method']) =>
    front.answered.find((answered) => answered.id === id && answered.method === method)

  /** What goes out for the stack's `message`: itself, nothing, or the corrections it calls for. */
  const outgoing = (message: AnyMessage): AnyMessage[] => {
    if (!('id' in message) || 'method' in message) return [message]
    if (initialize !== undefined && message.id === initialize.id) {
      const { params } = initialize
      initialize = undefined
      const sent = given(message.id, 'initialize')
      if ('result' in message) {
        const result = message.result as Record<string, unknown>
        if (sent === undefined || !same(sent.result, result)) {
          if (sent !== undefined) report('the start answered initialize unlike the stack')
          front.remember({ initialize: { params, result } })
        }
      } else if (sent !== undefined) {
        report(`the start answered initialize, the stack refused it: ${message.error.message}`)
      }
      return sent === undefined ? [message] : []
    }
    if (sessionNew !== undefined && message.id === sessionNew.id) {
      sessionNew = undefined
      const sent = given(message.id, 'session/new')
      if (!('result' in message)) {
        if (sent !== undefined) {
          const id = String(sent.result.sessionId)
          report(
            `the start gave out session ${id}, the stack could not open it: ${message.error.message}`,
          )
        }
        return sent === undefined ? [message] : []
      }
      const { sessionId, ...result } = message.result as Record<string, unknown>
      if (sent === undefined) {
        front.remember({ sessionNew: result })
        return [message]
      }
      const { sessionId: _given, ...kept } = sent.result
      if (same(kept, result)) return []
      front.remember({ sessionNew: result })
      return corrections(String(sessionId), kept, result)
    }
    return [message]
  }

  const writer = stream.writable.getWriter()
  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      for (const out of outgoing(message)) await writer.write(out)
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  })
  return { readable, writable }
}

/** The updates that bring a session answered with `kept` to the stack's `result`. */
function corrections(
  sessionId: string,
  kept: Record<string, unknown>,
  result: Record<string, unknown>,
): AnyMessage[] {
  const update = (body: Record<string, unknown>): AnyMessage => ({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId, update: body },
  })
  const updates: AnyMessage[] = []
  const mode = (answer: Record<string, unknown>) =>
    (answer.modes as { currentModeId?: unknown } | undefined)?.currentModeId
  if (mode(result) !== undefined && mode(result) !== mode(kept)) {
    updates.push(update({ sessionUpdate: 'current_mode_update', currentModeId: mode(result) }))
  }
  if (result.configOptions !== undefined && !same(result.configOptions, kept.configOptions)) {
    updates.push(
      update({ sessionUpdate: 'config_option_update', configOptions: result.configOptions }),
    )
  }
  return updates
}

/** The same JSON (both built by the same code, so with their keys in the same order). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
