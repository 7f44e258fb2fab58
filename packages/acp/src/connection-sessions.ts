// The sessions of one connection: their records by id, each announced to the server (which
// routes a permission layer's questions to it) while it lives, and released — its turn
// cancelled and awaited, its agent disposed — when it is closed or the connection goes.
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { AcpSessionRecord } from './session-record'

export class ConnectionSessions {
  private readonly records = new Map<string, AcpSessionRecord>()
  private readonly leave = new Map<string, () => void>()

  constructor(
    /** The record of a new live session of this connection. */
    private readonly recordOf: (agent: Agent) => AcpSessionRecord,
    /** Announces a live session; the returned function is called when it ends. */
    private readonly announce: (record: AcpSessionRecord) => () => void,
  ) {}

  open(agent: Agent): AcpSessionRecord {
    const record = this.recordOf(agent)
    this.records.set(record.id, record)
    this.leave.set(record.id, this.announce(record))
    return record
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
    await this.release(record)
    return true
  }

  /** Ends every session (the connection went away). */
  async closeAll(): Promise<void> {
    const records = [...this.records.values()]
    this.records.clear()
    await Promise.all(records.map((record) => this.release(record)))
  }

  private async release(record: AcpSessionRecord): Promise<void> {
    await record.dispose()
    this.leave.get(record.id)?.()
    this.leave.delete(record.id)
  }
}
