// The registry's tables: the tools every session sees, the tools of one session each (tools a
// session was opened with, such as its MCP servers'), and the waits of sessions whose own tools
// are still arriving. A lookup for a session finds its own tools and the shared ones; names are
// unique within what one session sees. Cordis-free; the registry adds the disposal.
import type { ToolDefinition, ToolSchema } from './types'

export interface ToolEntry {
  def: ToolDefinition
  /** Drawn at the first listing (see definition.ts), then kept. */
  schema?: ToolSchema
}

export class ToolEntries {
  private readonly shared = new Map<string, ToolEntry>()
  private readonly scoped = new Map<string, Map<string, ToolEntry>>()
  private readonly holds = new Map<string, Set<Promise<void>>>()

  /** The tool `name` as session `session` sees it (its own first), or as every session does. */
  find(name: string, session?: string): ToolEntry | undefined {
    if (session !== undefined) {
      const own = this.scoped.get(session)?.get(name)
      if (own !== undefined) return own
    }
    return this.shared.get(name)
  }

  /** True when adding `name` (for `session`, or for all) would give some session two tools of one name. */
  taken(name: string, session?: string): boolean {
    if (this.shared.has(name)) return true
    if (session !== undefined) return this.scoped.get(session)?.has(name) === true
    for (const own of this.scoped.values()) if (own.has(name)) return true
    return false
  }

  /** Adds the entry; the returned function removes it (only it, never a later one of the name). */
  add(entry: ToolEntry, session?: string): () => void {
    const name = entry.def.name
    let table = this.shared
    if (session !== undefined) {
      table = this.scoped.get(session) ?? new Map<string, ToolEntry>()
      this.scoped.set(session, table)
    }
    table.set(name, entry)
    return () => {
      if (table.get(name) !== entry) return
      table.delete(name)
      if (session !== undefined && table.size === 0 && this.scoped.get(session) === table) {
        this.scoped.delete(session)
      }
    }
  }

  /** What session `session` sees, shared tools first, each in registration order. */
  list(session?: string): ToolEntry[] {
    const shared = [...this.shared.values()]
    const own = session === undefined ? undefined : this.scoped.get(session)
    return own === undefined ? shared : [...shared, ...own.values()]
  }

  /** The session's own tools are still arriving until `until` settles; the returned function ends the wait early. */
  hold(session: string, until: Promise<unknown>): () => void {
    const waits = this.holds.get(session) ?? new Set<Promise<void>>()
    this.holds.set(session, waits)
    let release = () => {}
    const wait = new Promise<void>((resolve) => (release = resolve))
    const end = () => {
      release()
      waits.delete(wait)
      if (waits.size === 0 && this.holds.get(session) === waits) this.holds.delete(session)
    }
    waits.add(wait)
    until.then(end, end)
    return end
  }

  /** Settles once every wait of the session has; `undefined` when none is running. */
  settled(session: string): Promise<void> | undefined {
    const waits = this.holds.get(session)
    if (waits === undefined) return undefined
    return Promise.all(waits).then(() => undefined)
  }

  /** The number of sessions with tools of their own (for tests of disposal). */
  get sessions(): number {
    return this.scoped.size
  }
}
