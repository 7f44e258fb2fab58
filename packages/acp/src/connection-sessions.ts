// The sessions of one connection: their records by id while they live, each released — its
// turn cancelled and awaited, its agent disposed — when it is closed or the connection goes.
// A session whose id the host gave out before opening it (see AcpServeOptions) is opening until
// its session/new ends: a request for it waits for that (`ready`), as the client may send one
// as soon as it has the id.
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { AcpSessionRecord } from './session-record'

export class ConnectionSessions {
  private readonly records = new Map<string, AcpSessionRecord>()
  private readonly openings = new Map<string, Promise<unknown>>()

  constructor(
    /** The record of a new live session of this connection. */
    private readonly recordOf: (agent: Agent) => AcpSessionRecord,
  ) {}

  open(agent: Agent): AcpSessionRecord {
    const record = this.recordOf(agent)
    this.records.set(record.id, record)
    return record
  }

  /** Session `id` is being opened by `work`; returns `work`. */
  opening<T>(id: string, work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    )
    this.openings.set(id, settled)
    void settled.then(() => this.openings.delete(id))
    return work
  }

  /** Resolves once session `id` is no longer opening (at once for any other). */
  async ready(id: string): Promise<void> {
    await this.openings.get(id)
  }

  get(id: string): AcpSessionRecord | undefined {
    return this.records.get(id)
  }

  ids(): string[] {
    return [...this.records.keys()]
  }

  /** Ends a live session (a store keeps it); false when it is not live here. */
  async close(id: string): Promise<boolean> {
    const record = this.records.get(id)
    if (record === undefined) return false
    this.records.delete(id)
    await record.dispose()
    return true
  }

  /** Ends every session (the connection went away). */
  async closeAll(): Promise<void> {
    const records = [...this.records.values()]
    this.records.clear()
    await Promise.all(records.map((record) => record.dispose()))
  }
}
