// The seam a durable session store fills: the agent host writes each session's header and its
// events through it as they happen, and reads them back to load a session in a new process.
// Synchronous on purpose: an event is handed to the operating system before the next one is
// appended, so a crash loses at most the event in flight, and the host's event order is the
// store's. Types only; a store on disk is `@deepseek-ai/dsh-session-store`.
import type { SessionEvent, SessionHeader } from '../types'

/** A session's header as stored: the header, and what a listing shows of it. */
export interface StoredSessionHeader extends SessionHeader {
  /** ISO 8601 time of the last stored change. */
  updatedAt: string
  /** The first line of the first user message, shortened; absent before one. */
  title?: string
}

/** An event as stored: a tool result keeps its presentation, never its `details`; live output is never stored. */
export type StoredSessionEvent =
  | Exclude<SessionEvent, { type: 'tool/result' | 'tool/output' | 'tool/status' | 'tool/content' }>
  | Omit<Extract<SessionEvent, { type: 'tool/result' }>, 'details'>

/** One session as a listing shows it. */
export interface StoredSessionSummary {
  id: string
  cwd: string
  title?: string
  updatedAt: string
}

export interface SessionListOptions {
  /** Only the sessions of this workspace (absolute, compared as stored). */
  cwd?: string
  /** Where the previous page ended (its `nextCursor`). */
  cursor?: string
  /** Sessions per page. */
  limit?: number
}

export interface SessionListPage {
  /** Newest (by `updatedAt`) first. */
  sessions: StoredSessionSummary[]
  /** Present when more sessions follow. */
  nextCursor?: string
}

/** Appends to one stored session; it holds that session for this process until closed. */
export interface SessionWriter {
  /** Stores one event after the ones before it (one record; never a torn one on reload). */
  append(event: StoredSessionEvent): void
  /** Replaces the stored header (title, mode, roots, updatedAt). */
  saveHeader(header: StoredSessionHeader): void
  /** Makes everything appended so far durable (fsync); the host calls it at every turn end. */
  sync(): void
  /** Releases the session to other writers; the store keeps it. */
  close(): void
}

/** A stored session read back for a new agent: its header, its events, and its writer. */
export interface StoredSession {
  header: StoredSessionHeader
  events: StoredSessionEvent[]
  writer: SessionWriter
}

/** A child session as stored under its parent, read back to show it (never written to). */
export interface StoredChildSession {
  header: StoredSessionHeader
  events: StoredSessionEvent[]
}

/**
 * A durable store of sessions. Failures are AgentErrors: AGENT_SESSION_NOT_FOUND (no such id),
 * AGENT_SESSION_UNREADABLE (the files are not a session this store wrote; nothing is deleted),
 * AGENT_SESSION_LOCKED (another live process writes it), AGENT_STORE_IO (the disk failed).
 */
export interface SessionStore {
  /** Starts storing a new session. */
  create(header: StoredSessionHeader): SessionWriter
  /** Reads a stored session back and takes it for writing. */
  open(id: string): StoredSession
  /**
   * `open` in slices, with turns of the event loop between them (a long session's load leaves
   * other work served). Optional: without it, `open` is used.
   */
  openInSlices?(id: string): Promise<StoredSession>
  /** The stored sessions, newest first; files that are not sessions are skipped. */
  list(options?: SessionListOptions): SessionListPage
  /**
   * Removes one stored session, and nothing else. Refused (AGENT_SESSION_LOCKED) while any
   * writer holds it, this process's or another's; AGENT_SESSION_NOT_FOUND when it is not stored.
   */
  delete(id: string): void
  /**
   * The child sessions stored under session `id`, oldest first, read only (a load shows them
   * with their parent); none when it has none. Optional: a store without it shows none.
   */
  children?(id: string): StoredChildSession[]
}
