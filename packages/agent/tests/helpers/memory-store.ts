// A session store in memory for the agent host's tests: the seam's behaviour (one writer per
// session, events in order, a copy on open) without a disk. Records what the host did with it
// (syncs, headers saved) so tests see when the host makes a session durable.
import { AgentError } from '../../src'
import type {
  SessionListOptions,
  SessionListPage,
  SessionStore,
  SessionWriter,
  StoredSession,
  StoredSessionEvent,
  StoredSessionHeader,
} from '../../src'

interface Entry {
  header: StoredSessionHeader
  events: StoredSessionEvent[]
  held: boolean
  syncs: number
}

export class MemorySessionStore implements SessionStore {
  readonly entries = new Map<string, Entry>()

  create(header: StoredSessionHeader): SessionWriter {
    const entry: Entry = { header: structuredClone(header), events: [], held: true, syncs: 0 }
    this.entries.set(header.id, entry)
    return this.writerOf(entry)
  }

  open(id: string): StoredSession {
    const entry = this.entries.get(id)
    if (entry === undefined) throw new AgentError('AGENT_SESSION_NOT_FOUND', `no session ${id}`)
    if (entry.held) throw new AgentError('AGENT_SESSION_LOCKED', `session ${id} is held`)
    entry.held = true
    return {
      header: structuredClone(entry.header),
      events: structuredClone(entry.events),
      writer: this.writerOf(entry),
    }
  }

  list(options: SessionListOptions = {}): SessionListPage {
    const sessions = [...this.entries.values()]
      .filter((entry) => options.cwd === undefined || entry.header.cwd === options.cwd)
      .sort((a, b) => b.header.updatedAt.localeCompare(a.header.updatedAt))
      .map(({ header: { id, cwd, title, updatedAt } }) => ({ id, cwd, title, updatedAt }))
    return { sessions }
  }

  delete(id: string): void {
    const entry = this.entries.get(id)
    if (entry === undefined) throw new AgentError('AGENT_SESSION_NOT_FOUND', `no session ${id}`)
    if (entry.held) throw new AgentError('AGENT_SESSION_LOCKED', `session ${id} is held`)
    this.entries.delete(id)
  }

  private writerOf(entry: Entry): SessionWriter {
    return {
      append: (event) => void entry.events.push(structuredClone(event)),
      saveHeader: (header) => void (entry.header = structuredClone(header)),
      sync: () => void (entry.syncs += 1),
      close: () => void (entry.held = false),
    }
  }
}
