// The sessions of one connection: their records by id while they live, each released — its
// turn cancelled and awaited, its agent disposed — when it is closed or the connection goes.
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { AcpSessionChannels } from './session-channels'
import type { AcpSessionRecord } from './session-record'

export class ConnectionSessions {
  private readonly records = new Map<string, AcpSessionRecord>()

  constructor(
    /** The record of a new live session of this connection. */
    private readonly recordOf: (agent: Agent, channels: AcpSessionChannels) => AcpSessionRecord,
  ) {}

  /** The record of `agent`, created with `channels`: they answer through it from now on. */
  open(agent: Agent, channels: AcpSessionChannels): AcpSessionRecord {
    const record = this.recordOf(agent, channels)
    this.records.set(record.id, record)
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
