// AcpSessionRecord: the bridge's state for one ACP session — its agent, the prompt in flight
// and its tool cards (./tool-cards: wire ids, and when each card opens). It turns the agent's
// session events into `session/update` payloads, in event order, through `send`; it opens a
// card when its call starts, and asks the person about a call (`session/request_permission`)
// when the permission layer needs an answer for this session; a call running a command shows
// its output live (./terminal-cards).
// Not the wiring: it never touches the connection or JSON-RPC framing (see ./bridge).
import { RequestError } from '@agentclientprotocol/sdk'
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
import {
  fromAcpPermissionError,
  fromAcpPermissionResponse,
  toAcpPermissionRequest,
} from './permission'
import { presentSessionEvent } from './presenter'
import { replayUpdates } from './replay'
import type { AcpPresenterContext } from './presenter'
import { toAcpConfigOptionUpdate } from './config-options'
import { runSessionCommand } from './command-prompts'
import { SessionCommands } from './session-commands'
import { toAcpTerminalEnd } from './terminal-cards'
import { toAcpContent, toAcpPath, toAcpStopReason, toAcpUnfinishedToolCall } from './to-acp'
import type { AcpToolCall, AcpToolCallUpdate } from './to-acp'
import type { AcpSessionFiles } from './editor-files'
import { SessionInfoUpdates } from './session-info'
import { toAcpNotice } from './session-opening'
import type { AcpNotice } from './session-opening'
import { ToolCards } from './tool-cards'

/** Updates a replay sends before it waits for the connection to take them. */
export const REPLAY_BATCH = 256

export interface AcpSessionRecordOptions {
  agent: Agent
  /** Delivers one update of this session; called synchronously, in event order. */
  send: (update: SessionUpdate) => void
  /**
   * Delivers many updates of this session at once, in order; resolves once they were handed
   * on. Only a replay uses it (without it, `send` one by one): it is the first thing a loaded
   * session sends, so no update of `send`'s is waiting to go before it.
   */
  sendBatch?: (updates: readonly SessionUpdate[]) => Promise<void>
  /** The session's files as its editor holds them. */
  files: AcpSessionFiles
  /** The client advertised `session.compaction`. */
  compaction?: boolean
  /** The models the session may switch to, and the one it uses without a choice. */
  models?: () => { list: readonly string[]; fallback: string }
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
  /** The slash commands the session offers (./session-commands). */
  readonly commands: SessionCommands
  private readonly cards: ToolCards
  /** The prompt in flight, if any. */
  private running: Promise<StopReason> | undefined
  /** A cancel was asked for during the prompt in flight. */
  private cancelRequested = false
  private readonly presenter: AcpPresenterContext
  private readonly info: SessionInfoUpdates
  private readonly unsubscribe: () => void
  /** What runs when the session closes (see onClose). */
  private readonly closers: (() => Promise<void> | void)[] = []
  private closed = false

  constructor(private readonly options: AcpSessionRecordOptions) {
    this.agent = options.agent
    this.cards = new ToolCards(options.terminals === true)
    this.presenter = {
      cwd: this.cwd,
      compaction: options.compaction === true,
      notices: options.notices === true,
    }
    this.info = new SessionInfoUpdates(options.agent.session.header)
    this.commands = new SessionCommands(options.send, (notice) => this.notify(notice))
    this.unsubscribe = options.agent.subscribe((event) => {
      this.onEvent(event)
      this.sendAll(this.info.onLive(event))
    })
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

  /** The session's model: the one set on it, else the models' fallback. */
  get model(): string {
    return this.agent.model ?? this.options.models?.().fallback ?? ''
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
        const reason = await runSessionCommand(this.agent, this.commands, text, this.options.send)
        return this.cancelRequested ? 'cancelled' : toAcpStopReason(reason)
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

  /** True once the session was closed (disposed). */
  get isClosed(): boolean {
    return this.closed
  }

  /** Shows the person a notice of this session (see AcpSessionOpening.notify). */
  notify(notice: AcpNotice): void {
    if (!this.closed) this.options.send(toAcpNotice(notice, this.options.notices === true))
  }

  /** Runs `close` when the session closes; at once when it is closed already. */
  onClose(close: () => Promise<void> | void): void {
    if (this.closed) void Promise.resolve().then(close)
    else this.closers.push(close)
  }

  /**
   * Cancels any turn, waits for it to end, stops forwarding, releases the agent, then runs
   * what was to run at the close (a failure there is the closer's own: it does not stop the rest).
   */
  async dispose(): Promise<void> {
    this.closed = true
    this.commands.close()
    this.cancel()
    await this.running?.catch(() => undefined)
    this.unsubscribe()
    await this.agent.dispose()
    const closers = this.closers.splice(0)
    await Promise.all(
      closers.map((close) =>
        Promise.resolve()
          .then(close)
          .catch(() => undefined),
      ),
    )
  }

  /**
   * Asks the person about a call of this session (its card went out `pending` with the preview
   * when the call was reported asked): `session/request_permission`. The client answering
   * `cancelled` cancels the prompt, as ACP means it; a request the connection could not carry
   * counts as `cancelled`. A client that answers with a JSON-RPC error could not ask the
   * person: `failed` refuses this call only, and the turn goes on. Calls that run side by side
   * are asked about one at a time.
   */
  ask(request: ToolPermissionRequest): Promise<ToolPermissionAnswer> {
    const asked = this.asking.then(() => this.askNow(request))
    this.asking = asked.then(
      () => undefined,
      () => undefined,
    )
    return asked
  }

  /** The question being asked, if any: the next waits for it. */
  private asking: Promise<void> = Promise.resolve()

  private async askNow(request: ToolPermissionRequest): Promise<ToolPermissionAnswer> {
    const { exec } = request
    // A question that waited behind another whose answer cancelled the turn is not asked.
    if (exec.signal?.aborted) return { outcome: 'cancelled' }
    const wireId = this.cards.wireIdOf(exec.callId) ?? exec.callId
    const card = this.cards.askedCardOf(exec.callId)
    const params = toAcpPermissionRequest(this.id, wireId, request, this.cwd, card)
    let answer: ToolPermissionAnswer
    try {
      answer = fromAcpPermissionResponse(await this.options.requestPermission(params, exec.signal))
    } catch (error) {
      // An error answer from the client, unless the turn cancelled the request itself; any
      // other failure is the connection going away: nobody answered.
      answer =
        error instanceof RequestError && !exec.signal?.aborted
          ? fromAcpPermissionError(error)
          : { outcome: 'cancelled' }
    }
    if (answer.outcome === 'cancelled') this.cancel()
    return answer
  }

  /** A tool's notice (`tools/notice`), shown as a warning of this session; live only. */
  tell(notice: ToolNotice): void {
    this.notify({ ...notice, severity: 'warning' })
  }

  /**
   * Shows a stored session again: the person's messages as user_message_chunk, then every
   * answer, thought and card (the events carry their cards, presented once when the call ran),
   * each answer in one chunk and each card once, as it ended (./replay). With `sendBatch`, the
   * updates go out in batches of REPLAY_BATCH, each waited on before the next, so a long
   * session neither queues all its updates at once nor holds the connection's other sessions
   * up. Resolves once every update was handed on.
   */
  async replay(): Promise<void> {
    const { send, sendBatch } = this.options
    const events = this.agent.session.events.slice()
    // The stored title goes out once, after the session it names.
    const updates = [...replayUpdates(events, this.cards, this.presenter), ...this.info.replayed()]
    if (sendBatch === undefined) {
      for (const update of updates) send(update)
      return
    }
    let batch: SessionUpdate[] = []
    for (const update of updates) {
      batch.push(update)
      if (batch.length < REPLAY_BATCH) continue
      await sendBatch(batch)
      batch = []
    }
    if (batch.length > 0) await sendBatch(batch)
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
      case 'session/model':
        if (this.options.models) {
          this.options.send(toAcpConfigOptionUpdate(this.options.models().list, event.model))
        }
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
