// The model as a session option on one connection: the model list (asked of the agent host,
// which asks the server once), each session's `configOptions` for session/new, /load and
// /resume, `session/set_config_option` switching a session's model (the agent logs it; the
// session record sends `config_option_update`), a retired model name moved to its successor,
// and the commands a session offers, announced once its id is known to the client.
import type {
  SessionConfigOption,
  SessionUpdate,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk'
import { pickModel, toAcpConfigOptions } from './config-options'
import { toAcpAvailableCommands } from './context-updates'
import type { AcpSessionRecord } from './session-record'

export interface AcpModelSource {
  /** The models a session may use (never rejects). */
  models(): Promise<string[]>
  /** The model of a session that has not chosen one. */
  defaultModel: string
  /** A retired model name (the default model when absent) and its successor. */
  moved?(model?: string): AcpModelMove | undefined
}

/** A retired model name, its successor, and the notice that says so. */
export interface AcpModelMove {
  from: string
  to: string
  notice: string
}

export class SessionOptions {
  private list: readonly string[] = []
  /** The default model's move was told on this connection already. */
  private toldDefault = false

  constructor(private readonly source: AcpModelSource) {}

  /** What a session record needs to send `config_option_update`. */
  readonly models = (): { list: readonly string[]; fallback: string } => ({
    list: this.list,
    fallback: this.source.defaultModel,
  })

  /** Asks for the model list (the host caches it); called before a session is answered. */
  async refresh(): Promise<void> {
    this.list = await this.source.models()
  }

  /** The `configOptions` of a session's response. */
  of(record: AcpSessionRecord): SessionConfigOption[] {
    return toAcpConfigOptions(this.list, record.model)
  }

  /** `session/set_config_option`: -32602 for an unknown option or model. */
  async set(
    record: AcpSessionRecord,
    params: SetSessionConfigOptionRequest,
  ): Promise<SetSessionConfigOptionResponse> {
    await this.refresh()
    const model = pickModel(params, [...new Set([...this.list, record.model])])
    record.agent.setModel(model)
    return { configOptions: this.of(record) }
  }

  /**
   * A session opened on a retired model name: a stored one is moved to the successor (so it is
   * stored so, and told once); the default one is told once per connection. Returns the notice.
   */
  moveRetired(record: AcpSessionRecord): string | undefined {
    const stored = record.agent.session.header.model
    if (stored !== undefined) {
      const move = this.source.moved?.(stored)
      if (move !== undefined) record.agent.setModel(move.to)
      return move?.notice
    }
    if (this.toldDefault) return undefined
    const move = this.source.moved?.()
    if (move !== undefined) this.toldDefault = true
    return move?.notice
  }

  /** Sends the session's commands just after its response (a client needs the id first). */
  /** With `moved`, the notice of a retired model name goes after them, once. */
  announce(record: AcpSessionRecord, send: (update: SessionUpdate) => void, moved?: string): void {
    setImmediate(() => {
      send(toAcpAvailableCommands())
      if (moved !== undefined) record.notify({ title: moved, severity: 'warning' })
    })
  }
}
