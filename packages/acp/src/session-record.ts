// AcpSessionRecord: the bridge's state for one ACP session — its agent, the prompt in flight
// and its tool cards (./tool-cards: wire ids, and when each card opens). It turns the agent's
// session events into `session/update` payloads, in event order, through `send`; it opens a
// card when its call starts, and asks the person about a call (`session/request_permission`)
// when the permission layer needs an answer for this session; a call running a command shows
// its output live (./terminal-cards).
// Not the wiring: it never touches the connection or JSON-RPC framing (see ./bridge).
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  StopReason,
} from '@agentclientprotocol/sdk'
import type { Agent, SessionEvent, TurnEndReason } from '@deepseek-ai/dsh-agent'
import type {
  ToolNotice,
  ToolPermissionAnswer,
  ToolPermissionRequest,
} from '@deepseek-ai/dsh-tools'
import { fromAcpPermissionResponse, toAcpPermissionRequest } from './permission'
import { presentSessionEvent } from './presenter'
import type { AcpPresenterContext } from './presenter'
import { toAcpTerminalEnd } from './terminal-cards'
import { toAcpContent, toAcpPath, toAcpStopReason, toAcpUnfinishedToolCall } from './to-acp'
import type { AcpToolCall, AcpToolCallUpdate } from './to-acp'
import type { AcpSessionFiles } from './editor-files'
import { ToolCards } from './tool-cards'

export interface AcpSessionRecordOptions {
  agent: Agent
  /** Delivers one update of this session; called synchronously, in event order. */
  send: (update: SessionUpdate) => void
  /** The session's files as its editor holds them. */
  files: AcpSessionFiles
  /** The client shows terminals (`_meta.terminal_output`): commands stream into them. */
  terminals?: boolean
  /** The client shows `notice` updates (`session.notices`); else a notice is an agent message. */
  notices?: boolean
  /** Asks the client `session/request_permission`; the signal cancels the request. */
  requestPermission: (
    params: RequestPermissionRequest,
    signal?: AbortSignal,
  ) => Promise<RequestPermissionResponse>
}

export class AcpSessionRecord {
  readonly agent: Agent
  private readonly cards: ToolCards
  /** The prompt in flight, if any. */
  private running: Promise<StopReason> | undefined
  /** A cancel was asked for during the prompt in flight. */
  private cancelRequested = false
  private readonly presenter: AcpPresenterContext
  private readonly unsubscribe: () => void

  constructor(private readonly options: AcpSessionRecordOptions) {
    this.agent = options.agent
    this.cards = new ToolCards(options.terminals === true)
    this.presenter = { cwd: this.cwd }
    this.unsubscribe = options.agent.subscribe((event) => this.onEvent(event))
  }

  get id(): string {
    return this.agent.session.header.id
  }

  /** The session's files as its editor holds them (as far as the client offers them). */
  get files(): AcpSessionFiles {
    return this.options.files
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

  /**
   * Asks the person about a call of this session (its card went out `pending` with the preview
   * when the call was reported asked): `session/request_permission`. The client answering
   * `cancelled` cancels the prompt, as ACP means it; a request the connection could not carry
   * counts as `cancelled`.
   */
  async ask(request: ToolPermissionRequest): Promise<ToolPermissionAnswer> {
    const { exec } = request
    const wireId = this.cards.wireIdOf(exec.callId) ?? exec.callId
    const params = toAcpPermissionRequest(this.id, wireId, request, this.cwd)
    let answer: ToolPermissionAnswer
    try {
      answer = fromAcpPermissionResponse(await this.options.requestPermission(params, exec.signal))
    } catch {
      // The request was cancelled or the connection went away: nobody answered.
      answer = { outcome: 'cancelled' }
    }
    if (answer.outcome === 'cancelled') this.cancel()
    return answer
  }

  /**
   * Tells the person something about the session: a `notice` update to a client that shows
   * them, else a message of the agent. Live only: a replay does not repeat it.
   */
  tell(notice: ToolNotice): void {
    const { title, description } = notice
    if (this.options.notices === true) {
      this.options.send({
        sessionUpdate: 'notice',
        severity: 'warning',
        title,
        ...(description !== undefined && { description }),
      })
      return
    }
    const text = description === undefined ? title : `${title}: ${description}`
    this.options.send({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: `\n\n${text}\n\n` },
    })
  }

  /**
   * Shows a stored session again, as it went: the person's messages as user_message_chunk,
   * then every answer, thought and card as it was sent the first time (the events carry their
   * cards). A turn the process died in has its open cards closed as unfinished.
   */
  replay(): void {
    for (const event of this.agent.session.events) {
      if (event.type === 'user/message') {
        this.options.send({
          sessionUpdate: 'user_message_chunk',
          content: { type: 'text', text: event.text },
        })
      } else {
        this.onEvent(event)
      }
    }
    this.closeOpenCards('error')
  }

  private onEvent(event: SessionEvent): void {
    switch (event.type) {
      case 'tool/call': {
        const callId = this.cards.wireIdFor(event.callId)
        const [opening] = presentSessionEvent({ ...event, callId }, this.presenter)
        const terminal = event.presentation?.terminal
        const terminalCwd = terminal && toAcpPath(terminal.cwd ?? this.cwd, this.cwd)
        this.cards.hold(event.callId, opening as AcpToolCall, terminalCwd)
        return
      }
      case 'tool/output':
        this.sendAll(this.cards.output(event.callId, event.text))
        return
      case 'tool/asked':
        this.sendAll(this.cards.ask(event.callId, toAcpContent(event.preview, this.cwd)))
        return
      case 'tool/started':
        this.sendAll(this.cards.start(event.callId))
        return
      case 'tool/result': {
        const { wireId, opening, terminal } = this.cards.finish(event.callId)
        let updates = presentSessionEvent({ ...event, callId: wireId }, this.presenter)
        const end = event.presentation?.terminal
        if (terminal && end && this.cards.showsTerminals) {
          const [result] = updates as AcpToolCallUpdate[]
          if (result) updates = toAcpTerminalEnd(result, terminal.lead, end, terminal.streamed)
        }
        this.sendAll([...opening, ...updates])
        return
      }
      case 'turn/end':
        this.sendAll(presentSessionEvent(event, this.presenter))
        this.closeOpenCards(event.reason)
        return
      default:
        this.sendAll(presentSessionEvent(event, this.presenter))
    }
  }

  /** Closes the cards a turn left open (a cancelled turn, or a process that ended in it). */
  private closeOpenCards(reason: TurnEndReason): void {
    for (const { wireId, opening } of this.cards.takeAll()) {
      this.sendAll([...opening, toAcpUnfinishedToolCall(wireId, reason)])
    }
  }

  private sendAll(updates: readonly SessionUpdate[]): void {
    for (const update of updates) this.options.send(update)
  }
}
