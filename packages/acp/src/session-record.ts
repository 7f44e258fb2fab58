// AcpSessionRecord: the bridge's state for one ACP session — its agent, the prompt in flight,
// the arguments of each tool call (for presentResult) and the cards still open. It turns the
// agent's session events into `session/update` payloads, in event order, through `send`.
// Not the wiring: it never touches the connection or JSON-RPC framing (see ./bridge).
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk'
import type { Agent, SessionEvent } from '@deepseek-ai/dsh-agent'
import { presentSessionEvent } from './presenter'
import type { AcpToolPresenter } from './presenter'
import { toAcpStopReason, toAcpUnfinishedToolCall } from './to-acp'

export interface AcpSessionRecordOptions {
  agent: Agent
  tools: AcpToolPresenter
  /** Delivers one update of this session; called synchronously, in event order. */
  send: (update: SessionUpdate) => void
}

export class AcpSessionRecord {
  readonly agent: Agent
  private readonly callArgs = new Map<string, unknown>()
  private readonly openCalls = new Set<string>()
  private readonly state: { prompt?: Promise<StopReason>; cancelRequested: boolean } = {
    cancelRequested: false,
  }
  private readonly unsubscribe: () => void

  constructor(private readonly options: AcpSessionRecordOptions) {
    this.agent = options.agent
    this.unsubscribe = options.agent.subscribe((event) => this.onEvent(event))
  }

  get id(): string {
    return this.agent.session.header.id
  }

  get cwd(): string {
    return this.agent.session.header.cwd
  }

  /** True while a prompt of this session is in flight. */
  get busy(): boolean {
    return this.state.prompt !== undefined
  }

  /**
   * Runs one turn. The caller checks `busy` first; `signal` (the request's) cancels the turn.
   * After a `cancel()` the prompt settles `cancelled`, whatever the turn's own end, as ACP asks.
   */
  prompt(text: string, signal: AbortSignal): Promise<StopReason> {
    const state = this.state
    state.cancelRequested = false
    const onAbort = () => this.cancel()
    signal.addEventListener('abort', onAbort, { once: true })
    const run = async (): Promise<StopReason> => {
      try {
        const end = await this.agent.send(text)
        return state.cancelRequested ? 'cancelled' : toAcpStopReason(end.reason)
      } finally {
        signal.removeEventListener('abort', onAbort)
        state.prompt = undefined
      }
    }
    const prompt = run()
    state.prompt = prompt
    return prompt
  }

  /** Cancels the prompt in flight, if any: the model stream and the running tool are aborted. */
  cancel(): void {
    if (!this.state.prompt) return
    this.state.cancelRequested = true
    this.agent.cancel()
  }

  /** Cancels any turn, waits for it to end, stops forwarding and releases the agent. */
  async dispose(): Promise<void> {
    this.cancel()
    await this.state.prompt?.catch(() => undefined)
    this.unsubscribe()
    await this.agent.dispose()
  }

  private onEvent(event: SessionEvent): void {
    const updates = presentSessionEvent(event, {
      tools: this.options.tools,
      cwd: this.cwd,
      argsOf: (callId) => this.callArgs.get(callId),
    })
    if (event.type === 'tool/call') {
      this.callArgs.set(event.callId, event.arguments)
      this.openCalls.add(event.callId)
    } else if (event.type === 'tool/result') {
      this.callArgs.delete(event.callId)
      this.openCalls.delete(event.callId)
    } else if (event.type === 'turn/end') {
      for (const callId of this.openCalls)
        updates.push(toAcpUnfinishedToolCall(callId, event.reason))
      this.openCalls.clear()
      this.callArgs.clear()
    }
    for (const update of updates) this.options.send(update)
  }
}
