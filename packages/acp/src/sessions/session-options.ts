// A session's options on one connection: the model list (asked of the agent host, which asks
// the server once), each session's `configOptions` (mode, model, thought level) for
// session/new, /load and /resume, `session/set_config_option` switching one (the agent logs
// it; the session record sends the updates), and a retired model name moved to its successor.
import type {
  SessionConfigOption,
  SessionMode,
  SetSessionConfigOptionRequest,
  SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk'
import { pickOption, toAcpConfigOptions } from '../wire/config-options'
import type { AcpOptionState, AcpThoughtLevels } from '../wire/config-options'
import type { AcpSessionRecord } from './session-record'

export interface AcpModelSource {
  /** The models a session may use (never rejects). */
  models(): Promise<string[]>
  /** The model of a session that has not chosen one. */
  defaultModel: string
  /** A retired model name (the default model when absent) and its successor. */
  moved?(model?: string): AcpModelMove | undefined
  /** The levels `model` thinks at, when it has several. */
  thoughtLevels?(model: string): AcpThoughtLevels | undefined
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

  constructor(
    private readonly source: AcpModelSource,
    private readonly modes: readonly SessionMode[] = [],
    private readonly defaultMode?: string,
  ) {}

  /** What a session record needs to send `config_option_update`. */
  readonly models = (): { list: readonly string[]; fallback: string } => ({
    list: this.list,
    fallback: this.source.defaultModel,
  })

  /** Asks for the model list (the host caches it); called before a session is answered. */
  async refresh(): Promise<void> {
    this.list = await this.source.models()
  }

  /** What a session's options are drawn from: its mode, model and thought level now. */
  stateOf(record: AcpSessionRecord): AcpOptionState {
    const { header } = record.agent.session
    const model = record.model
    const thought = this.source.thoughtLevels?.(model)
    return {
      modes: this.modes,
      mode: header.mode ?? this.defaultMode,
      models: [...new Set([...this.list, model])],
      model,
      ...(thought !== undefined && { thought }),
      ...(header.thoughtLevel !== undefined && { thoughtLevel: header.thoughtLevel }),
    }
  }

  /** The `configOptions` of a session's response: every option, the current values. */
  of(record: AcpSessionRecord): SessionConfigOption[] {
    return toAcpConfigOptions(this.stateOf(record))
  }

  /**
   * `session/set_config_option`: -32602 for an unknown option or value; else the agent logs
   * the change (the session record sends the updates) and the answer is the whole list.
   */
  async set(
    record: AcpSessionRecord,
    params: SetSessionConfigOptionRequest,
  ): Promise<SetSessionConfigOptionResponse> {
    await this.refresh()
    const choice = pickOption(params, this.stateOf(record))
    if (choice.option === 'mode') record.agent.setMode(choice.value)
    else if (choice.option === 'model') record.agent.setModel(choice.value)
    else record.agent.setThoughtLevel(choice.value)
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

  /**
   * Sends the session's commands just after its response (a client needs the id first), and
   * with `moved` the notice of a retired model name after them, once.
   */
  announce(record: AcpSessionRecord, moved?: string): void {
    record.commands.announce()
    if (moved !== undefined) {
      setImmediate(() => record.notify({ title: moved, severity: 'warning' }))
    }
  }
}
