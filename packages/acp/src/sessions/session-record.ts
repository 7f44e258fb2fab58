// AcpSessionRecord: the bridge's state for one ACP session — its agent, the prompt in flight,
// and what answers the session's channels to its person and editor (asking, notices, files),
// which its agent was created with (./session-channels). It turns the agent's
// session events into `session/update` payloads, in event order, through `send`: tool cards
// through ../cards/session-cards, its child sessions' through ./child-sessions (nested cards, or
// subagent sessions of their own), questions through ./ask-queue.
// Not the wiring: it never touches the connection or JSON-RPC framing (see ../bridge).
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk'
import type { Agent, SessionEvent } from '@deepseek-ai/dsh-agent'
import type {
  ToolEditorFiles,
  ToolNotice,
  ToolPermissionAnswer,
  ToolPermissionRequest,
} from '@deepseek-ai/dsh-tools'
import { AskQueue } from './ask-queue'
import { ChildSessions } from './child-sessions'
import { presentSessionEvent } from '../cards/presenter'
import type { AcpPresenterContext } from '../cards/presenter'
import { runSessionCommand } from './command-prompts'
import { DrawnCommands, planCommand } from './session-commands'
import { toAcpStopReason } from '../wire/to-acp'
import type { AcpSessionFiles } from './editor-files'
import type { AcpElicit } from './elicit'
import { SessionCards, isToolEvent } from '../cards/session-cards'
import { SessionInfoUpdates } from '../cards/session-info'
import { toAcpNotice } from './session-opening'
import type { AcpNotice } from './session-opening'
import type { AcpPromptImage } from '../wire/prompt-images'
import { REPLAY_BATCH } from './session-record-options'
import type { AcpSessionRecordOptions } from './session-record-options'
import type { AcpChannelTarget } from './session-channels'

export class AcpSessionRecord implements AcpChannelTarget {
  readonly agent: Agent
  private readonly options: AcpSessionRecordOptions
  /** The slash commands the session offers, as its client is shown them (./session-commands). */
  readonly commands: DrawnCommands
  private readonly cards: SessionCards
  /** The child sessions shown here, and where each one's calls are. */
  private readonly children: ChildSessions
  private readonly asks: AskQueue
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
  /** The session's files for its calls: a child's under the wire session its cards are on. */
  readonly editorFiles: ToolEditorFiles

  constructor(given: AcpSessionRecordOptions) {
    // Every update handed on is tracked, for the channels' `written`.
    const { channels } = given
    const options: AcpSessionRecordOptions = {
      ...given,
      send: (update) => channels.track(given.send(update)),
      sendOn: (sessionId, update) => channels.track(given.sendOn(sessionId, update)),
    }
    this.options = options
    this.agent = options.agent
    this.presenter = {
      cwd: this.cwd,
      compaction: options.compaction === true,
      notices: options.notices === true,
    }
    this.cards = new SessionCards(options.terminals === true, this.presenter)
    this.children = new ChildSessions({
      root: options.agent.session,
      rootCards: this.cards,
      presenter: this.presenter,
      terminals: options.terminals === true,
      subagents: options.subagents === true,
      sendOn: (sessionId, update) => options.sendOn(sessionId, update),
      isClosed: () => this.closed,
    })
    this.asks = new AskQueue({
      cwd: this.cwd,
      targetOf: (request) => this.children.targetOf(request.exec.session),
      requestPermission: options.requestPermission,
      onCancelled: () => this.cancel(),
    })
    this.info = new SessionInfoUpdates(options.agent.session.header)
    const { commands } = options.agent
    this.commands = new DrawnCommands(commands, options.send, (notice) => this.notify(notice))
    // `/plan [text]` where plan is one of the session's modes.
    if (options.modes?.includes('plan') === true) {
      commands.offer('acp-plan', 'built-in', [planCommand(options.agent)])
    }
    // The session's channels: its calls (and its child sessions') ask and tell its person
    // here, and read and write through its editor.
    const { files, filesOn } = options
    this.editorFiles = {
      ...files,
      forSession: (session) => this.children.filesOf(session, files, filesOn),
    }
    channels.attach(this)
    const unsubscribe = options.agent.subscribe((event) => {
      this.onEvent(event)
      this.sendAll(this.info.onLive(event))
    })
    const unfollow = options.agent.onChild((child) =>
      this.children.follow(child, options.agent.session),
    )
    this.unsubscribe = () => {
      unsubscribe()
      unfollow()
    }
  }

  get id(): string {
    return this.agent.session.header.id
  }

  /** The session's channel to the person's forms; undefined when the client shows none. */
  get elicit(): AcpElicit | undefined {
    return this.options.elicit
  }

  /** The wire id of the open card of this session's call `callId` (the model's id). */
  wireIdOf(callId: string): string | undefined {
    return this.cards.wireIdOf(callId)
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
  prompt(
    text: string,
    signal: AbortSignal,
    images: readonly AcpPromptImage[] = [],
  ): Promise<StopReason> {
    this.cancelRequested = false
    const onAbort = () => this.cancel()
    signal.addEventListener('abort', onAbort, { once: true })
    const run = async (): Promise<StopReason> => {
      try {
        const reason = await runSessionCommand(this.agent, text, images, (u) =>
          this.options.send(u),
        )
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

  /** The card of model call `callId` says what it waits on (the editor applying a change). */
  waiting(callId: string, text: string): void {
    if (!this.closed) this.sendAll(this.cards.waiting(callId, text))
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
   * Asks the person about a call of this session or of one of its child sessions
   * (`session/request_permission`, see ./ask-queue); calls side by side are asked one at a time.
   */
  ask(request: ToolPermissionRequest): Promise<ToolPermissionAnswer> {
    return this.children.asking(request.exec.session, () => this.asks.ask(request))
  }

  /** A tool's notice (the session's `notice` channel), shown as a warning; live only. */
  tell(notice: ToolNotice): void {
    this.notify({ ...notice, severity: 'warning' })
  }

  /**
   * Shows a stored session again: the person's messages as user_message_chunk, then every
   * answer, thought and card (the events carry their cards, presented once when the call ran),
   * each answer in one chunk and each card once, as it ended (../cards/replay); the child sessions
   * stored under it shown as they were live (./child-sessions). With `sendBatch`, the updates
   * go out in batches of REPLAY_BATCH, each waited on before the next, so a long session neither
   * queues all its updates at once nor holds the connection's other sessions up. Resolves once
   * every update was handed on.
   */
  async replay(): Promise<void> {
    const { sendOn, sendBatch, storedChildren } = this.options
    const events = this.agent.session.events.slice()
    const childrenOf = storedChildren ?? (() => [])
    const updates = this.children.replay(this.id, events, this.cards.cards, childrenOf)
    // The stored title goes out once, after the session it names.
    const own = updates.findLastIndex((routed) => routed.sessionId === this.id)
    const title = this.info.replayed().map((update) => ({ sessionId: this.id, update }))
    updates.splice(own + 1, 0, ...title)
    if (sendBatch === undefined) {
      for (const { sessionId, update } of updates) sendOn(sessionId, update)
      return
    }
    for (let start = 0; start < updates.length; start += REPLAY_BATCH) {
      await sendBatch(updates.slice(start, start + REPLAY_BATCH))
    }
  }

  private onEvent(event: SessionEvent): void {
    if (isToolEvent(event)) {
      this.sendAll(this.cards.updatesOf(event))
      return
    }
    switch (event.type) {
      case 'turn/end':
        this.sendAll(presentSessionEvent(event, this.presenter))
        this.sendAll(this.cards.closeOpen(event.reason))
        return
      case 'session/mode':
        // Both roads see a mode change: the legacy mode selector and the config options.
        this.sendAll(presentSessionEvent(event, this.presenter))
        this.sendOptions()
        return
      case 'session/model':
      case 'session/thought-level':
        this.sendOptions()
        return
      default:
        this.sendAll(presentSessionEvent(event, this.presenter))
    }
  }

  /** The whole option list, as a client replaces its option state with it. */
  private sendOptions(): void {
    const options = this.options.configOptions?.()
    if (options)
      this.options.send({ sessionUpdate: 'config_option_update', configOptions: options })
  }

  private sendAll(updates: readonly SessionUpdate[]): void {
    for (const update of updates) this.options.send(update)
  }
}
