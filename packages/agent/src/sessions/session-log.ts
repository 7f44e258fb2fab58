// SessionLog: one session's header, its scope and its append-only event log, with synchronous
// subscribers. It is the `Session` an Agent exposes; it knows nothing of models or tools.
// SessionScope: what a root session shares with its child sessions, given whole at creation.
// A listener that throws is reported through `onListenerError` and skipped, so one bad
// subscriber can neither break the turn that appended the event nor starve other listeners.
import type { ToolSessionChannels, ToolSessionScope } from '@deepseek-ai/dsh-tools'
import type { Session, SessionEvent, SessionHeader, SessionListener } from '../types'

/**
 * A root session's scope: its id, its mode as its header holds it (a host sets it with
 * `agent.setMode`), and the channels its host gave when it was created.
 */
export class SessionScope implements ToolSessionScope {
  constructor(
    private readonly root: SessionHeader,
    readonly channels: ToolSessionChannels = {},
  ) {}

  get id(): string {
    return this.root.id
  }

  get mode(): string | undefined {
    return this.root.mode
  }
}

export type ListenerErrorHandler = (error: unknown, event: SessionEvent) => void

export class SessionLog implements Session {
  private readonly log: SessionEvent[]
  private readonly listeners = new Set<SessionListener>()
  /** `earlier`: the events of a stored session this log goes on from (delivered to no one). */
  constructor(
    readonly header: SessionHeader,
    /** A root session's own (SessionScope), a child session's its root's. */
    readonly scope: ToolSessionScope,
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
