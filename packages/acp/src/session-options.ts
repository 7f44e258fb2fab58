// The model as a session option on one connection: the model list (asked of the agent host,
// which asks the server once), each session's `configOptions` for session/new, /load and
// /resume, `session/set_config_option` switching a session's model (the agent logs it; the
// session record sends `config_option_update`).
import type {
  SessionConfigOption,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk'
import { pickModel, toAcpConfigOptions } from './config-options'
import type { AcpSessionRecord } from './session-record'

export interface AcpModelSource {
  /** The models a session may use (never rejects). */
  models(): Promise<string[]>
  /** The model of a session that has not chosen one. */
  defaultModel: string
}

export class SessionOptions {
  private list: readonly string[] = []

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
}
