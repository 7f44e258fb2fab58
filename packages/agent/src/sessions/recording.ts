// SessionRecording: one agent's session written to a store as it happens — every event as one
// record (a tool call's long strings clipped, a tool result without its `details`), the stored
// header kept current (its title from the first user message, its mode, its last change), and
// everything made durable at each turn end. A store that fails (a full disk) is reported and never breaks the turn: the session goes
// on in memory. Not the store itself (./store is the seam; session-store is one on disk).
import { clipLongStrings } from '@deepseek-ai/dsh-tools'
import type { SessionWriter, StoredSessionEvent, StoredSessionHeader } from './store'
import { sessionTitleOf } from './title'
import type { SessionEvent, SessionHeader } from '../types'

export class SessionRecording {
  private readonly header: StoredSessionHeader

  constructor(
    header: StoredSessionHeader,
    private readonly writer: SessionWriter,
    private readonly warn: (problem: string) => void,
  ) {
    this.header = { ...header }
  }

  /** The stored header of a new session. */
  static headerOf(header: SessionHeader): StoredSessionHeader {
    return { ...header, roots: [...header.roots], updatedAt: header.createdAt }
  }

  record(event: SessionEvent): void {
    // Live only: the result keeps the final output.
    if (
      event.type === 'tool/output' ||
      event.type === 'tool/status' ||
      event.type === 'tool/content'
    )
      return
    try {
      this.writer.append(storedOf(event))
      if (event.type === 'user/message' && this.header.title === undefined) {
        this.header.title = sessionTitleOf(event.text)
        this.saveHeader()
      } else if (event.type === 'session/mode') {
        this.header.mode = event.mode
        this.saveHeader()
      } else if (event.type === 'session/model') {
        this.header.model = event.model
        this.saveHeader()
      } else if (event.type === 'session/thought-level') {
        this.header.thoughtLevel = event.level
        this.saveHeader()
      } else if (event.type === 'turn/end') {
        this.saveHeader()
        this.writer.sync()
      }
    } catch (error) {
      // The store failed; the turn must not: the session goes on in memory, unstored.
      const reason = error instanceof Error ? error.message : String(error)
      this.warn(`session ${this.header.id} could not be stored: ${reason}`)
    }
  }

  /** Makes the session durable and releases it to other writers. */
  close(): void {
    try {
      this.writer.close()
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      this.warn(`session ${this.header.id} could not be closed in the store: ${reason}`)
    }
  }

  private saveHeader(): void {
    this.header.updatedAt = new Date().toISOString()
    this.writer.saveHeader({ ...this.header })
  }
}

/**
 * An event as stored: a tool call's long string arguments clipped (a write's content is the
 * whole file), a tool result without its `details`, which may hold whole files.
 */
export function storedOf(
  event: Exclude<SessionEvent, { type: 'tool/output' | 'tool/status' | 'tool/content' }>,
): StoredSessionEvent {
  if (event.type === 'tool/call') {
    const args = clipLongStrings(event.arguments)
    return args === event.arguments ? event : { ...event, arguments: args }
  }
  if (event.type !== 'tool/result' || event.details === undefined) return event
  const { details: _details, ...stored } = event
  return stored
}
