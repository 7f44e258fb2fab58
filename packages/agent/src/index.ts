// The agent host: `ctx.agents` creates agents, each a session with an event log and the tool
// loop that drives ctx.llm and ctx.tools. Public face only: the service, its config and the
// re-exports. Disposing the plugin cancels every running turn and releases every agent.
import { randomUUID } from 'node:crypto'
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-llm' // for its augmentation: ctx.llm
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import type {} from '@deepseek-ai/dsh-tools' // for its augmentation: ctx.tools
import { z } from 'zod'
import { Agent } from './agent'
import type { LoopServices } from './loop'
import type { AgentCreateOptions } from './types'
import { AgentError } from './errors'
import { checkRoots, checkWorkspace } from './workspace'

declare module 'cordis' {
  interface Context {
    agents: Agents
  }
}

export const Config = z
  .object({
    /** Model requests allowed in one turn before it ends with `max-steps`. */
    maxSteps: z.number().int().positive().default(50),
  })
  .prefault({})

/** The config as given: every field optional. */
export type AgentsConfig = z.input<typeof Config>

export default class Agents extends Service {
  static inject = ['llm', 'tools', 'systemPrompt']
  static Config = Config

  private readonly agents = new Map<string, Agent>()
  private readonly maxSteps: number
  private disposed = false

  constructor(
    private readonly host: Context,
    config: AgentsConfig,
  ) {
    super(host, 'agents')
    // Cordis validated the config against `Config` when the plugin loaded: this is its output.
    const { maxSteps } = config as z.output<typeof Config>
    this.maxSteps = maxSteps
    host.effect(() => () => this.disposeAll(), 'agents')
  }

  /** A new agent on the workspace `cwd` (absolute, an existing directory). */
  create(options: AgentCreateOptions): Agent {
    if (this.disposed) {
      throw new AgentError('AGENT_DISPOSED', 'The agents service was disposed.')
    }
    const cwd = checkWorkspace(options?.cwd)
    const roots = checkRoots(cwd, options.additionalDirectories)
    const { host, agents } = this
    const id = randomUUID()
    const logger = host.logger('agents')
    const agent = new Agent({
      header: {
        id,
        cwd,
        roots,
        ...(options.mode !== undefined && { mode: options.mode }),
        createdAt: new Date().toISOString(),
      },
      services: (): LoopServices => ({
        llm: host.llm,
        tools: host.tools,
        systemPrompt: host.systemPrompt,
      }),
      maxSteps: this.maxSteps,
      model: options.model,
      systemPrompt: options.systemPrompt,
      onListenerError: (error, event) =>
        logger.warn('a listener of session %s threw on %s: %s', id, event.type, error),
      onDispose: () => {
        agents.delete(id)
        void releaseWithCaller()
      },
    })
    // The agent is also released when the plugin that created it is disposed.
    const releaseWithCaller = this.ctx.effect(() => () => agent.dispose(), `agent ${id}`)
    agents.set(id, agent)
    return agent
  }

  get(id: string): Agent | undefined {
    return this.agents.get(id)
  }

  /** The live agents, oldest first. */
  list(): Agent[] {
    return [...this.agents.values()]
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
export type * from './store'
