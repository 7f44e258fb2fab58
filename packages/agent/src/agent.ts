// Agent: one session (header + append-only event log) and its conversation with the model.
// It owns the turn bookkeeping — one turn at a time, turn/start and turn/end exactly once,
// cancel and dispose — and hands each turn to the loop (./turn/loop); it keeps the session's model
// and its context window (./context/context), and compacts on demand. It is not a Cordis service;
// the Agents service creates agents and gives them the services a turn needs.
import { randomUUID } from 'node:crypto'
import type { LlmImage, LlmMessage } from '@deepseek-ai/dsh-llm'
import type { ToolAgent } from '@deepseek-ai/dsh-tools'
import type { AgentOptions } from './agent-options'
import { SessionContext } from './context/context'
import { SessionCommands } from './sessions/commands'
import { carriedBy, gatherNotes } from './context/context-sources'
import type { ContextSourceOf } from './context/context-sources'
import { assertTakesImages, userMessageOf } from './turn/images'
import { runTurn } from './turn/loop'
import type { TurnOutcome, TurnSession } from './turn/loop'
import { SessionLog } from './sessions/session-log'
import { currentPlanOf } from './turn/plan'
import { sessionTitleOf } from './sessions/title'
import { announceChild, assertCanSend, guardTurn } from './turn/turn-guard'
import type { SessionEvent, SessionListener, TurnEnd } from './types'

interface RunningTurn {
  controller: AbortController
  /** Settles after the turn's turn/end was appended. */
  ended: Promise<void>
}

export class Agent implements ToolAgent {
  readonly session: SessionLog
  /** The session's context window: how full it is, what it cost, its compaction. */
  readonly context: SessionContext
  /** The slash commands the session offers (./sessions/commands): plugins offer, a bridge draws them. */
  readonly commands = new SessionCommands()
  private readonly history: LlmMessage[]
  /** Notes waiting for the next model request (`note`). */
  private readonly notes: string[] = []
  private current: RunningTurn | undefined
  private disposal: Promise<void> | undefined
  private readonly released = new AbortController()
  /** What each of the session's turns uses (./turn/loop). */
  private readonly turns: TurnSession
  private readonly childListeners = new Set<(child: Agent) => void>()
  constructor(private readonly options: AgentOptions<Agent>) {
    const { restored, header, scope } = options
    this.session = new SessionLog(header, scope, options.onListenerError, restored?.events)
    this.history = restored ? [...restored.history] : []
    this.context = new SessionContext({
      policy: options.policy,
      info: () => options.modelInfo(this.model),
      firstMessage: () => this.firstMessage(),
      ...(restored !== undefined && { earlier: restored.events }),
      currentPlan: () => currentPlanOf(this.session.events)?.text,
      carried: () => carriedBy(this.sources(), this),
    })
    this.turns = {
      agent: this,
      history: this.history,
      maxSteps: options.maxSteps,
      ...(options.systemPrompt !== undefined && { systemPrompt: options.systemPrompt }),
      context: this.context,
      append: (event) => this.session.append(event),
      notify: (event) => this.session.notify(event),
      takeNotes: () => this.notes.splice(0),
    }
  }

  /** The model the session's requests name: the one a host set, else the one it was created with. */
  get model(): string | undefined {
    return this.session.header.model ?? this.options.model
  }

  /**
   * Sets the session's model (its requests name it; its context window follows it) and logs
   * `session/model`, so a UI shows the change; a no-op when it is the model already.
   */
  setModel(model: string): void {
    if (this.model === model) return
    this.session.header.model = model
    this.session.append({ type: 'session/model', model })
  }

  /** The thought level the session's requests are sent at; absent: the model's default. */
  get thoughtLevel(): string | undefined {
    return this.session.header.thoughtLevel
  }

  /**
   * Sets how hard the model thinks on the session's next requests and logs
   * `session/thought-level`, so a UI shows the change; a no-op when it is the level already.
   */
  setThoughtLevel(level: string): void {
    if (this.session.header.thoughtLevel === level) return
    this.session.header.thoughtLevel = level
    this.session.append({ type: 'session/thought-level', level })
  }

  /**
   * Compacts the conversation now, as a turn of its own (turn/start, the compaction's events,
   * turn/end): old tool outputs elided, the older conversation summarised. Rejects like `send`
   * (AGENT_DISPOSED, AGENT_BUSY). `typed`: what the person typed for it, kept on turn/start.
   */
  async compact(typed = '/compact'): Promise<TurnEnd> {
    return this.runTurnOf(
      typed,
      async (turnId, signal) => {
        const services = this.options.services()
        const prompt = services.systemPrompt.assemble(this.options.systemPrompt)
        await this.context.prepare(
          {
            history: this.history,
            prompt,
            llm: services.llm,
            ...(this.model !== undefined && { model: this.model }),
            signal,
            turnId,
            append: (event) => this.session.append(event),
          },
          'command',
        )
        return signal.aborted ? { reason: 'cancelled' } : { reason: 'completed' }
      },
      typed,
    )
  }

  /** True while a turn runs. */
  get running(): boolean {
    return this.current !== undefined
  }

  /** Fires when the agent is disposed: what its calls left running ends with it. */
  get lifetime(): AbortSignal {
    return this.released.signal
  }

  get disposed(): boolean {
    return this.disposal !== undefined
  }

  /**
   * Runs one turn and resolves with its turn/end event. Model and tool failures end the turn
   * (`error`) or go back to the model; they never reject. Rejects, before anything is logged,
   * with AGENT_DISPOSED, AGENT_EMPTY_MESSAGE, AGENT_IMAGE_INPUT (images for a model that reads
   * text only), or AGENT_BUSY while another turn runs (a second
   * message is refused, not queued: the caller decides whether to wait, cancel or drop it).
   * `typed`: what the person typed, when `text` was made from it (a slash command's message).
   */
  async send(text: string, images: readonly LlmImage[] = [], typed?: string): Promise<TurnEnd> {
    // A model that reads text only refuses images before anything is logged (AGENT_IMAGE_INPUT).
    if (this.disposal === undefined) assertTakesImages(this.options.modelInfo(this.model), images)
    const play = (turnId: string, signal: AbortSignal) =>
      this.playTurn(turnId, text, images, signal)
    return this.runTurnOf(text, play, typed)
  }

  /** One turn's bookkeeping around `play`: busy, turn/end exactly once, cancel. */
  private async runTurnOf(
    text: string,
    play: (turnId: string, signal: AbortSignal) => Promise<TurnOutcome>,
    typed?: string,
  ): Promise<TurnEnd> {
    assertCanSend({ disposed: this.disposed, running: this.running }, text)
    let markEnded = () => {}
    const ended = new Promise<void>((resolve) => (markEnded = resolve))
    const turn: RunningTurn = { controller: new AbortController(), ended }
    this.current = turn
    const turnId = randomUUID()
    const append = (event: SessionEvent) => this.session.append(event)
    const guarded = { id: turnId, signal: turn.controller.signal, typed }
    const outcome = await guardTurn(append, guarded, play)
    this.current = undefined
    const end: TurnEnd = {
      type: 'turn/end',
      turnId,
      reason: outcome.reason,
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    }
    this.session.append(end)
    markEnded()
    return end
  }

  /**
   * Sets the session's permission mode (read by a permission layer from the header) and logs
   * `session/mode`, so a UI shows the change; a no-op when the mode is already `mode`.
   */
  setMode(mode: string): void {
    if (this.session.header.mode === mode) return
    this.session.header.mode = mode
    this.session.append({ type: 'session/mode', mode })
  }

  /** Aborts the running turn's model stream and tool; a no-op when no turn runs. */
  cancel(): void {
    this.current?.controller.abort()
  }

  /**
   * Tells `listener` of each child session started for this agent from now on (see
   * `ctx.agents.createChild`), so a host can show its work; returns the unsubscribe.
   */
  onChild(listener: (child: Agent) => void): () => void {
    this.childListeners.add(listener)
    return () => this.childListeners.delete(listener)
  }

  /** Announces a child session of this agent to the `onChild` listeners (the agents service does). */
  adopt(child: Agent): void {
    announceChild(this.childListeners, child)
  }

  /** Delivers each event appended from now on, synchronously; returns the unsubscribe. */
  subscribe(listener: SessionListener): () => void {
    return this.session.subscribe(listener)
  }

  /**
   * Cancels the running turn and releases the agent; resolves once that turn has ended (its
   * running tool call, if any, has settled). Further `send` rejects with AGENT_DISPOSED.
   */
  dispose(): Promise<void> {
    if (!this.disposal) {
      const ended = this.current?.ended ?? Promise.resolve()
      this.disposal = ended.then(() => this.session.clearListeners())
      this.cancel()
      this.released.abort()
      this.options.onDispose?.(this)
    }
    return this.disposal
  }

  private async playTurn(
    turnId: string,
    text: string,
    images: readonly LlmImage[],
    signal: AbortSignal,
  ): Promise<TurnOutcome> {
    const { options } = this
    this.session.header.title ??= sessionTitleOf(text)
    // The sources' notes stand before the person's message: theirs is the last word.
    await this.gatherNotes(turnId, signal)
    const attached = images.length > 0 ? { images: [...images] } : {}
    this.session.append({ type: 'user/message', turnId, text, ...attached })
    this.history.push(userMessageOf(text, images))
    return runTurn(this.turns, {
      services: options.services(),
      turnId,
      signal,
      ...(this.model !== undefined && { model: this.model }),
      ...(this.thoughtLevel !== undefined && { thoughtLevel: this.thoughtLevel }),
      beforeStep: () => this.gatherNotes(turnId, signal),
    })
  }

  private sources(): readonly ContextSourceOf<Agent>[] {
    return this.options.contextSources?.() ?? []
  }

  /** The context sources' notes for now, logged and added to the conversation. */
  private gatherNotes(turnId: string, signal: AbortSignal): Promise<void> {
    const sources = this.sources()
    if (sources.length === 0) return Promise.resolve()
    return gatherNotes({
      sources,
      agent: this,
      turnId,
      signal,
      history: this.history,
      append: (event) => this.session.append(event),
      warn: (problem) => this.options.warn?.(problem),
    })
  }

  /**
   * Adds `text` to the conversation before the session's next model request (this turn's next
   * step, or the next turn's first), as a user message the log keeps (`session/note`).
   */
  note(text: string): void {
    this.notes.push(text)
  }

  /** The person's first message of the session, as logged. */
  private firstMessage(): string | undefined {
    for (const event of this.session.events) if (event.type === 'user/message') return event.text
    return undefined
  }
}
