// What the agents service gives an Agent it makes (./sessions/start): its session's header and scope,
// the services of its turns, the step limit, its model, the compaction policy and the context
// sources. Types only.
import type { LlmMessage, LlmModelInfo } from '@deepseek-ai/dsh-llm'
import type { ToolSessionScope } from '@deepseek-ai/dsh-tools'
import type { ContextPolicy } from './context/context'
import type { ContextSourceOf } from './context/context-sources'
import type { LoopServices } from './turn/loop'
import type { ListenerErrorHandler } from './sessions/session-log'
import type { SessionEvent, SessionHeader } from './types'

/** `A`: the agent made from them (`Agent`), which its callbacks are given. */
export interface AgentOptions<A> {
  header: SessionHeader
  /** The session's scope: a root session's own, a child session's its root's. */
  scope: ToolSessionScope
  /** The services of a turn, looked up when the turn starts. */
  services: () => LoopServices
  maxSteps: number
  model?: string
  /** When the context is compacted, and what survives. */
  policy: ContextPolicy
  /** A model's window and prices (ctx.llm's modelInfo). */
  modelInfo: (model?: string) => LlmModelInfo
  /** Extra prose appended to the assembled system prompt. */
  systemPrompt?: string
  onListenerError?: ListenerErrorHandler
  /** Called once, when the agent is disposed. */
  onDispose?: (agent: A) => void
  /** A stored session's events and conversation, when the agent goes on from them. */
  restored?: { events: readonly SessionEvent[]; history: LlmMessage[] }
  /** What adds notes to the conversation (./context/context-sources), looked up at each step. */
  contextSources?: () => readonly ContextSourceOf<A>[]
  /** Reports a problem that does not stop the turn (a context source that failed). */
  warn?: (problem: string) => void
}
