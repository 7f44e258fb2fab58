// AcpSessionRecord: the bridge's state for one ACP session — its agent, the prompt in flight,
// the cards still open (with their arguments, for presentResult) and the wire id of each tool
// call. It turns the agent's session events into `session/update` payloads, in event order,
// through `send`. Tool-call ids come from the model and may repeat across its requests, while
// ACP wants a toolCallId unique in the session: a call keeps the model's id while that id is
// new in the session, else it goes on the wire as `<id>#2`, `<id>#3`, ….
// Not the wiring: it never touches the connection or JSON-RPC framing (see ./bridge).
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk'
import type { Agent, SessionEvent } from '@deepseek-ai/dsh-agent'
import { presentSessionEvent } from './presenter'
import type { AcpPresenterContext, AcpToolPresenter } from './presenter'
import { toAcpStopReason, toAcpUnfinishedToolCall } from './to-acp'

export interface AcpSessionRecordOptions {
  agent: Agent
  tools: AcpToolPresenter
  /** Delivers one update of this session; called synchronously, in event order. */
  send: (update: SessionUpdate) => void
}

export class AcpSessionRecord {
  readonly agent: Agent
  /** Open cards: wire id → the call's arguments. */
  private readonly openCalls = new Map<string, unknown>()
  /** Model call id → wire id, for the calls still open. */
  private readonly wireIds = new Map<string, string>()
  /** Every wire id this session has sent. */
  private readonly sentIds = new Set<string>()
  /** The prompt in flight, if any. */
  private running: Promise<StopReason> | undefined
  /** A cancel was asked for during the prompt in flight. */
  private cancelRequested = false
  private readonly presenter: AcpPresenterContext
  private readonly unsubscribe: () => void

  constructor(private readonly options: AcpSessionRecordOptions) {
    this.agent = options.agent
    this.presenter = {
      tools: options.tools,
      cwd: this.cwd,
      argsOf: (toolCallId) => this.openCalls.get(toolCallId),
    }
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
    return this.running !== undefined
  }

  /**
   * Runs one turn. The caller checks `busy` first; `signal` (the request's) cancels the turn.
   * After a `cancel()` the prompt settles `cancelled`, whatever the turn's own end, as ACP asks.
   */
  prompt(text: string, signal: AbortSignal): Promise<StopReason> {
    this.cancelRequested = false
    const onAbort = () => this.cancel()
    signal.addEventListener('abort', onAbort, { once: true })
    const run = async (): Promise<StopReason> => {
      try {
        const end = await this.agent.send(text)
        return this.cancelRequested ? 'cancelled' : toAcpStopReason(end.reason)
      } finally {
        signal.removeEventListener('abort', onAbort)
        this.running = undefined
      }
    }
    const prompt = run()
    this.running = prompt
    return prompt
  }

  /** Cancels the prompt in flight, if any: the model stream and the running tool are aborted. */
  cancel(): void {
    if (!this.running) return
    this.cancelRequested = true
    this.agent.cancel()
  }

  /** Cancels any turn, waits for it to end, stops forwarding and releases the agent. */
  async dispose(): Promise<void> {
    this.cancel()
    await this.running?.catch(() => undefined)
    this.unsubscribe()
    await this.agent.dispose()
  }

  private onEvent(event: SessionEvent): void {
    const wireEvent = this.withWireId(event)
    const updates = presentSessionEvent(wireEvent, this.presenter)
    if (wireEvent.type === 'tool/result') {
      this.openCalls.delete(wireEvent.callId)
    } else if (wireEvent.type === 'turn/end') {
      for (const toolCallId of this.openCalls.keys())
        updates.push(toAcpUnfinishedToolCall(toolCallId, wireEvent.reason))
      this.openCalls.clear()
      this.wireIds.clear()
    }
    for (const update of updates) this.options.send(update)
  }

  /** The event with its tool call's wire id in place of the model's id. */
  private withWireId(event: SessionEvent): SessionEvent {
    if (event.type === 'tool/call') {
      let toolCallId = event.callId
      for (let n = 2; this.sentIds.has(toolCallId); n++) toolCallId = `${event.callId}#${n}`
      this.sentIds.add(toolCallId)
      this.wireIds.set(event.callId, toolCallId)
      this.openCalls.set(toolCallId, event.arguments)
      return { ...event, callId: toolCallId }
    }
    if (event.type === 'tool/result') {
      const toolCallId = this.wireIds.get(event.callId) ?? event.callId
      this.wireIds.delete(event.callId)
      return { ...event, callId: toolCallId }
    }
    return event
  }
}
