// What the start's front (./front) hands the program (./bin) when it has read the client's first
// requests: the input from its first byte, the requests it answered itself from the answers file
// (./front-answers), the session ids it gave out, and the way to keep the stack's own answers for
// the next start (./front-tap). It travels on the global `Symbol.for('dsh-acp.front')`, named in
// ./start and ./bin alike: the start (dist/bin.js) and the program share no module, only these
// types (a value here would be a chunk both builds load). Types only.
import type { Readable } from 'node:stream'

/** A request the front answered: its id, its method and the result it sent. */
export interface FrontAnswered {
  id: string | number
  method: 'initialize' | 'session/new'
  result: Record<string, unknown>
}

/** What the stack answered, kept for the next start: each when it differs from what was kept. */
export interface FrontAnswers {
  /** `initialize`: the request's params as JSON text, and the result. */
  initialize?: { params: string; result: Record<string, unknown> }
  /** `session/new`'s result less its `sessionId`. */
  sessionNew?: Record<string, unknown>
}

export interface FrontHandoff {
  /** What the program reads instead of process.stdin, when the front read from it. */
  stdin?: Readable
  /** The requests the front answered, in order. */
  answered: FrontAnswered[]
  /** The next session id the front gave out, for the stack's `session/new` (undefined: none). */
  sessionIds(): string | undefined
  /** Keeps the stack's answers for the next start with the same setup. */
  remember(answers: FrontAnswers): void
}
