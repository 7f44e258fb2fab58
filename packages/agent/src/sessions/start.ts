// Starting one agent for the agents service: the header and scope come from the caller
// (create, createChild, restore); this gives the agent the services of its turns, the step
// limit, the compaction policy and the context sources, records its events when sessions are
// stored, and releases it with the plugin that created it. Not public: the service calls it.
import { randomUUID } from 'node:crypto'
import type { Context } from 'cordis'
import type { LlmMessage } from '@deepseek-ai/dsh-llm'
import { untraced } from '@deepseek-ai/dsh-tools'
import type { ToolSessionScope } from '@deepseek-ai/dsh-tools'
import { Agent } from '../agent'
import type { ContextPolicy } from '../context/context'
import type { ContextSourceOf } from '../context/context-sources'
import type { LoopServices } from '../turn/loop'
import type { SessionRecording } from './recording'
import type { AgentChildOptions, AgentCreateOptions, SessionEvent, SessionHeader } from '../types'
import { checkRoots, checkWorkspace } from './workspace'

/** What an agent is started from. */
export interface AgentStart {
  header: SessionHeader
  scope: ToolSessionScope
  options: { model?: string; systemPrompt?: string }
  recording: SessionRecording | undefined
  /** A stored session's events and conversation, when the agent goes on from them. */
  restored?: { events: readonly SessionEvent[]; history: LlmMessage[] }
  /** Kept in the service's list (a child session is not). */
  listed?: boolean
}

/** What the agents service lends each agent it starts. */
export interface AgentStartParts {
  /** The service's own context: its services are looked up there. */
  host: Context
  /** The caller's context: the agent is released when its plugin is disposed. */
  caller: Context
  /** The service's live agents, by session id. */
  agents: Map<string, Agent>
  maxSteps: number
  policy: ContextPolicy
  sources: () => readonly ContextSourceOf<Agent>[]
  warn: (problem: string) => void
}

/** A new root session's header; throws AGENT_BAD_CWD for a workspace or root that is not one. */
export function rootHeader(options: AgentCreateOptions): SessionHeader {
  const cwd = checkWorkspace(options?.cwd)
  const roots = checkRoots(cwd, options.additionalDirectories)
  return {
    id: randomUUID(),
    cwd,
    roots,
    ...(options.mode !== undefined && { mode: options.mode }),
    createdAt: new Date().toISOString(),
  }
}

/** A child session's header: its parent's workspace and roots, the parent named. */
export function childHeader(parent: SessionHeader, options: AgentChildOptions): SessionHeader {
  return {
    id: randomUUID(),
    cwd: parent.cwd,
    roots: [...parent.roots],
    parent: parent.id,
    ...(options.parentCallId !== undefined && { parentCallId: options.parentCallId }),
    ...(options.title !== undefined && { title: options.title }),
    createdAt: new Date().toISOString(),
  }
}

export function startAgent(parts: AgentStartParts, spec: AgentStart): Agent {
  const { host, agents, warn } = parts
  const { header, scope, options, recording, restored, listed = true } = spec
  const { id } = header
  const logger = host.logger('agents')
  const agent = new Agent({
    header,
    scope,
    ...(restored !== undefined && { restored }),
    // The services themselves, not Cordis's proxies of them (see `untraced`): a turn's many
    // calls then reach them directly. Looked up per turn, so a replaced service is used.
    services: (): LoopServices => ({
      llm: untraced(host.llm),
      tools: untraced(host.tools),
      systemPrompt: untraced(host.systemPrompt),
    }),
    maxSteps: parts.maxSteps,
    ...(options.model !== undefined && { model: options.model }),
    policy: parts.policy,
    modelInfo: (model) => untraced(host.llm).modelInfo(model),
    ...(options.systemPrompt !== undefined && { systemPrompt: options.systemPrompt }),
    contextSources: parts.sources,
    warn,
    onListenerError: (error, event) =>
      logger.warn('a listener of session %s threw on %s: %s', id, event.type, error),
    onDispose: () => {
      if (listed) agents.delete(id)
      // The store is closed once the turn that was running has logged its end.
      void agent.dispose().then(() => recording?.close())
      void releaseWithCaller()
    },
  })
  if (recording) agent.subscribe((event) => recording.record(event))
  // The agent is also released when the plugin that created it is disposed.
  const releaseWithCaller = parts.caller.effect(() => () => agent.dispose(), `agent ${id}`)
  if (listed) agents.set(id, agent)
  return agent
}
