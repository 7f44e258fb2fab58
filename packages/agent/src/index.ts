// The agent host: `ctx.agents` creates agents, each a session with an event log and the tool
// loop that drives ctx.llm and ctx.tools. Public face only: the service, its config and the
// re-exports. Disposing the plugin cancels every running turn and releases every agent.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type { LlmModelMove, LlmThoughtLevels } from '@deepseek-ai/dsh-llm' // and ctx.llm
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import { configOf } from '@deepseek-ai/dsh-tools'
import { Agent } from './agent'
import { AgentError } from './errors'
import { historyOf } from './turn/history'
import type { ContextPolicy } from './context/context'
import { Config, policyOf } from './config'
import type { AgentsConfig } from './config'
import type { ContextSourceOf } from './context/context-sources'
import { SessionRecording } from './sessions/recording'
import { childHeader, rootHeader, startAgent } from './sessions/start'
import type { AgentStart } from './sessions/start'
import { SessionScope } from './sessions/session-log'
import type {
  SessionListOptions,
  SessionListPage,
  SessionStore,
  StoredChildSession,
  StoredSession,
} from './sessions/store'
import type { AgentChildOptions, AgentCreateOptions, AgentRestoreOptions } from './types'
import type { SessionHeader } from './types'

declare module 'cordis' {
  interface Context {
    agents: Agents
  }

  interface Events {
    /** emit: stored session `id` was deleted (`agents.delete`); what others keep for it may go. */
    'agents/deleted'(id: string): void
  }
}

export default class Agents extends Service {
  static inject = ['llm', 'tools', 'systemPrompt']
  static Config = Config

  private readonly agents = new Map<string, Agent>()
  private readonly sources = new Set<ContextSource>()
  private readonly maxSteps: number
  private readonly policy: ContextPolicy
  private readonly store: SessionStore | undefined
  private disposed = false

  constructor(
    private readonly host: Context,
    config: AgentsConfig,
  ) {
    super(host, 'agents')
    const { maxSteps, store, compaction } = configOf(Config, config)
    this.maxSteps = maxSteps
    this.policy = policyOf(compaction)
    this.store = store
    host.effect(() => () => this.disposeAll(), 'agents')
  }

  /** The models a session may use (ctx.llm's list); never rejects. */
  models(): Promise<string[]> {
    return this.host.llm.models()
  }

  /** The model a session without one uses. */
  get defaultModel(): string {
    return this.host.llm.defaultModel
  }

  /** The model takes images (ctx.llm's modelInfo); default: the model new sessions start with. */
  takesImages(model?: string): boolean {
    return this.host.llm.modelInfo(model ?? this.defaultModel).imageInput === true
  }

  /** A retired model name (the default model when absent) and its successor (ctx.llm's). */
  moved(model?: string): LlmModelMove | undefined {
    return this.host.llm.moved(model)
  }

  /** The levels `model` (the default model when absent) thinks at (ctx.llm's), if several. */
  thoughtLevels(model?: string): LlmThoughtLevels | undefined {
    return this.host.llm.thoughtLevels(model)
  }

  /** True when sessions are stored, so they can be listed and loaded again. */
  get stores(): boolean {
    return this.store !== undefined
  }

  /**
   * A new agent on the workspace `cwd` (absolute, an existing directory): a root session with
   * its own scope, whose channels are `options.channels`.
   */
  create(options: AgentCreateOptions): Agent {
    this.assertLive()
    const header = rootHeader(options)
    const scope = new SessionScope(header, options.channels)
    return this.start({ header, scope, options, recording: this.recordingOf(header) })
  }

  /**
   * A child session of `parent`: its workspace and roots, a fresh conversation, `parent` in its
   * header, and its root session's scope, by reference: its calls ask and tell the person
   * through the root's channels, under the root's mode and "always allow" memory, and see the
   * root's session tools. What it costs counts toward the parent's cost (and so its parent's);
   * it is stored under the parent (never listed on its own) and ends when the parent does.
   * Not kept in `get`/`list`.
   */
  createChild(parent: Agent, options: AgentChildOptions = {}): Agent {
    this.assertLive()
    if (parent.disposed) {
      throw new AgentError(
        'AGENT_DISPOSED',
        'The parent agent was disposed; a child needs a live one.',
      )
    }
    const header = childHeader(parent.session.header, options)
    const { scope } = parent.session
    const recording = this.recordingOf(header)
    const child = this.start({ header, scope, options, recording, listed: false })
    child.context.chargeAlsoTo(parent.context)
    const end = () => void child.dispose()
    parent.lifetime.addEventListener('abort', end, { once: true })
    child.lifetime.addEventListener('abort', () =>
      parent.lifetime.removeEventListener('abort', end),
    )
    parent.adopt(child)
    return child
  }

  /** The recording of a new session, when sessions are stored. */
  private recordingOf(header: SessionHeader): SessionRecording | undefined {
    const writer = this.store?.create(SessionRecording.headerOf(header))
    return writer && new SessionRecording(SessionRecording.headerOf(header), writer, this.warn)
  }

  /**
   * The stored session `id` as a live agent that goes on from where it stopped: the model gets
   * the earlier conversation; the read-before-write rule starts fresh (a new session object).
   * Throws AGENT_SESSION_NOT_FOUND (no store, or no such session), AGENT_SESSION_LOCKED (live
   * here already, or in another process), AGENT_SESSION_UNREADABLE, AGENT_STORE_IO.
   */
  restore(id: string, options: AgentRestoreOptions = {}): Agent {
    return this.resume(options, this.storeToRestore(id).open(id))
  }

  /**
   * `restore`, with the log read in slices and turns of the event loop between them (the
   * store's `openInSlices`, where it has one): a long session's load leaves the process
   * serving other requests and sessions meanwhile. Rejects as `restore` throws.
   */
  async restoreInSlices(id: string, options: AgentRestoreOptions = {}): Promise<Agent> {
    const store = this.storeToRestore(id)
    const stored = store.openInSlices ? await store.openInSlices(id) : store.open(id)
    try {
      this.storeToRestore(id) // the host may have been disposed, or the id restored, meanwhile
    } catch (error) {
      stored.writer.close()
      throw error
    }
    return this.resume(options, stored)
  }

  /** The store a session `id` can be restored from; throws when it cannot be. */
  private storeToRestore(id: string): SessionStore {
    this.assertLive()
    if (this.store === undefined) {
      throw new AgentError(
        'AGENT_SESSION_NOT_FOUND',
        `Session "${id}" cannot be loaded: no session store is configured.`,
      )
    }
    if (this.agents.has(id)) {
      throw new AgentError(
        'AGENT_SESSION_LOCKED',
        `Session "${id}" is live here already; use it, or close it first.`,
      )
    }
    return this.store
  }

  private resume(options: AgentRestoreOptions, stored: StoredSession): Agent {
    const { updatedAt: _updatedAt, ...given } = stored.header
    const header = { ...given, roots: [...given.roots] }
    const recording = new SessionRecording(stored.header, stored.writer, this.warn)
    const restored = { events: stored.events, history: historyOf(stored.events) }
    const scope = new SessionScope(header, options.channels)
    return this.start({ header, scope, options, recording, restored })
  }

  /**
   * Removes stored session `id` from the store. A session live in this process is refused (close
   * it first), as is one another live process writes. Throws AGENT_SESSION_NOT_FOUND (no store,
   * or no such session), AGENT_SESSION_LOCKED, AGENT_STORE_IO.
   */
  delete(id: string): void {
    this.assertLive()
    if (this.store === undefined) {
      throw new AgentError(
        'AGENT_SESSION_NOT_FOUND',
        `Session "${id}" cannot be deleted: no session store is configured.`,
      )
    }
    if (this.agents.has(id)) {
      throw new AgentError(
        'AGENT_SESSION_LOCKED',
        `Session "${id}" is live in this process; close it before deleting it.`,
      )
    }
    this.store.delete(id)
    this.host.emit('agents/deleted', id)
  }

  /**
   * Adds a context source (./context/context-sources): every session asks it for notes before each
   * model request, until the returned function is called or the caller's plugin is disposed.
   */
  addContextSource(source: ContextSource): () => void {
    const sources = this.sources
    const dispose = this.ctx.effect(() => {
      sources.add(source)
      return () => void sources.delete(source)
    }, `context source ${source.name}`)
    return () => void dispose()
  }

  /**
   * The child sessions stored under session `id`, oldest first (none without a store, or one
   * that cannot read them): what a host shows of a loaded session's delegates.
   */
  storedChildren(id: string): StoredChildSession[] {
    return this.store?.children?.(id) ?? []
  }

  /** The stored sessions, newest first (none without a store). */
  stored(options?: SessionListOptions): SessionListPage {
    return this.store?.list(options) ?? { sessions: [] }
  }

  get(id: string): Agent | undefined {
    return this.agents.get(id)
  }

  /** The live agents, oldest first. */
  list(): Agent[] {
    return [...this.agents.values()]
  }

  private start(spec: AgentStart): Agent {
    const { host, agents, maxSteps, policy, warn } = this
    const sources = () => [...this.sources]
    // `this.ctx`: the caller's context, whose disposal releases the agent too.
    const parts = { host, caller: this.ctx, agents, maxSteps, policy, sources, warn }
    return startAgent(parts, spec)
  }

  private readonly warn = (problem: string): void => {
    this.host.logger('agents').warn(problem)
  }

  private assertLive(): void {
    if (this.disposed) throw new AgentError('AGENT_DISPOSED', 'The agents service was disposed.')
  }

  private async disposeAll(): Promise<void> {
    this.disposed = true
    await Promise.all([...this.agents.values()].map((agent) => agent.dispose()))
  }
}

export { Agent } from './agent'
export { AGENT_ERROR_CODES, AgentError, isAgentError } from './errors'
export type { AgentErrorCode } from './errors'
export type * from './types'
export type * from './sessions/store'
export { currentPlanOf } from './turn/plan'
export type { SessionPlan } from './turn/plan'
export { TITLE_MAX_CHARS, sessionTitleOf } from './sessions/title'
export { SessionContext } from './context/context'
export type { ContextPolicy, SessionContextOptions } from './context/context'
export { Config } from './config'
export type { AgentsConfig } from './config'
export { SessionScope } from './sessions/session-log'
export type { ContextNote, ContextSourceOf } from './context/context-sources'
/** A source of notes for the agent host's sessions (`ctx.agents.addContextSource`). */
export type ContextSource = ContextSourceOf<Agent>
export { ContextMeter, estimateMessage, estimateRequest, estimateTokens } from './context/tokens'
export { cutOutput, elideBefore, recentStart, stubFor } from './context/elide'
export type { KeepToolOutput } from './context/elide'
export { historyOf } from './turn/history'
export * from './sessions/commands'
export { READ_CONCURRENCY } from './turn/lanes'
