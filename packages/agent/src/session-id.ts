// A new session's id: a fresh UUID, or the one its host gave out before creating it (the app's
// start answers `session/new` before the stack is loaded), checked to be a UUID no live session
// has. A stored session with that id is the store's to refuse.
import { randomUUID } from 'node:crypto'
import { AgentError } from './errors'

/** A UUID as `randomUUID` writes it (any version, either case). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `given` when there is one (a TypeError when no UUID, AGENT_SESSION_LOCKED when live), else a fresh id. */
export function newSessionId(given: string | undefined, isLive: (id: string) => boolean): string {
  if (given === undefined) return randomUUID()
  if (!UUID.test(given)) throw new TypeError(`Session id ${JSON.stringify(given)} is not a UUID.`)
  if (isLive(given)) {
    throw new AgentError(
      'AGENT_SESSION_LOCKED',
      `Session ${given} is live here already: a new session needs a new id.`,
    )
  }
  return given
}
