// SessionLog: one session's header and its append-only event log, with synchronous
// subscribers. It is the `Session` an Agent exposes; it knows nothing of models or tools.
// A listener that throws is reported through `onListenerError` and skipped, so one bad
// subscriber can neither break the turn that appended the event nor starve other listeners.
import type { ToolSessionChannels } from '@deepseek-ai/dsh-tools'
import type { Session, SessionEvent, SessionHeader, SessionListener } from './types'

export type ListenerErrorHandler = (error: unknown, event: SessionEvent) => void

export class SessionLog implements Session {
  private readonly log: SessionEvent[]
  private readonly listeners = new Set<SessionListener>()
  private own: ToolSessionChannels | undefined
  /** A child session's parent (its header's `parent` is that session's id). */
  parent: SessionLog | undefined

  /**
   * The session's ways to the person and the editor, as its host set them; a child session
   * always answers with its parent's (setting a child's changes nothing).
   */
  get channels(): ToolSessionChannels | undefined {
    return this.parent !== undefined ? this.parent.channels : this.own
  }

  set channels(channels: ToolSessionChannels | undefined) {
    this.own = channels
  }

  /** `earlier`: the events of a stored session this log goes on from (delivered to no one). */
  constructor(
    readonly header: SessionHeader,
    private readonly onListenerError: ListenerErrorHandler = () => {},
    earlier: readonly SessionEvent[] = [],
  ) {
    this.log = [...earlier]
  }

  get events(): readonly SessionEvent[] {
    return this.log
  }

  /** Appends an event and delivers it to every listener before returning. */
  append(event: SessionEvent): void {
    this.log.push(event)
    this.notify(event)
  }

  /** Delivers a live event (`tool/output`) to every listener without keeping it in the log. */
  notify(event: SessionEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event)
      } catch (error) {
        this.onListenerError(error, event)
      }
    }
  }

  /** Adds a listener for events appended from now on; returns its removal. */
  subscribe(listener: SessionListener): () => void {
    const entry: SessionListener = (event) => listener(event)
    this.listeners.add(entry)
    return () => {
      this.listeners.delete(entry)
    }
  }

  /** Drops every listener (the agent was released). */
  clearListeners(): void {
    this.listeners.clear()
  }
}
