// Types of the agent host: sessions, their event log, and agents. Types only.
import type { LlmImage } from '@deepseek-ai/dsh-llm'
import type {
  ToolCallPresentation,
  ToolContent,
  ToolErrorInfo,
  ToolImage,
  ToolPresentationContent,
  ToolSessionChannels,
  ToolSessionScope,
  ToolResultPresentation,
} from '@deepseek-ai/dsh-tools'

export interface SessionHeader {
  id: string
  /** Absolute path of the session workspace; tools resolve relative paths against it. */
  cwd: string
  /** The directories the session works in: `cwd` first, then each added one (absolute). */
  roots: string[]
  /** The permission mode a host set (`agent.setMode`); absent until one is set. */
  mode?: string
  /** The model a host set (`agent.setModel`); absent: the one the agent was created with. */
  model?: string
  /** How hard the model thinks, as a host set it (`agent.setThoughtLevel`); absent: its default. */
  thoughtLevel?: string
  /** ISO 8601 time the session was created. */
  createdAt: string
  /** A child session's parent session id: stored under it, never listed on its own. */
  parent?: string
  /** The parent's tool call that started a child session (a task's), when one did. */
  parentCallId?: string
  /** The first line of the first user message, shortened (`sessionTitleOf`); absent before one. */
  title?: string
}

export type TurnEndReason = 'completed' | 'cancelled' | 'max-steps' | 'error'

/** One entry of a session's append-only log. `turnId` ties the entries of one turn. */
export type SessionEvent =
  /**
   * `prompt`: what the person typed, when it was not the turn's message (a slash command:
   * `/compact`, or `/review src` whose message the command made), so a replay shows it.
   */
  | { type: 'turn/start'; turnId: string; prompt?: string }
  /** `images`: the prompt's images (base64, as they came), kept so a loaded session resends them. */
  | { type: 'user/message'; turnId: string; text: string; images?: LlmImage[] }
  | { type: 'assistant/chunk'; turnId: string; kind: 'text' | 'reasoning'; text: string }
  | {
      type: 'tool/call'
      turnId: string
      callId: string
      name: string
      /** Parsed JSON arguments; the raw text when it was not valid JSON. */
      arguments: unknown
      /** The call's card (its tool's presentCall with the session cwd), when it has one. */
      presentation?: ToolCallPresentation
    }
  /** A permission layer put the call to a person; `preview` is what the call would do. */
  | { type: 'tool/asked'; turnId: string; callId: string; preview: ToolPresentationContent[] }
  /** The call got past every gate and runs now. */
  | { type: 'tool/started'; turnId: string; callId: string }
  /**
   * A piece of a running call's live output. Live only: delivered to listeners, never kept in
   * the log nor stored (the call's result carries its final output).
   */
  | { type: 'tool/output'; turnId: string; callId: string; text: string }
  /** Where a running call is (a server's progress). Live only, like `tool/output`. */
  | { type: 'tool/status'; turnId: string; callId: string; text: string }
  /** A running call's card content so far, replaced each time. Live only, like `tool/output`. */
  | { type: 'tool/content'; turnId: string; callId: string; text: string }
  | {
      type: 'tool/result'
      turnId: string
      callId: string
      name: string
      content: ToolContent[]
      isError: boolean
      error?: ToolErrorInfo
      details?: unknown
      /** Images for the model (base64), kept in the log so a loaded session resends them. */
      images?: ToolImage[]
      /** The finished card (its tool's presentResult with the session cwd), when it has one. */
      presentation?: ToolResultPresentation
    }
  | { type: 'turn/end'; turnId: string; reason: TurnEndReason; error?: string }
  /**
   * A note the agent added to the conversation before a model request (`agent.note`: a
   * background task's report); the model gets it as a user message.
   */
  | { type: 'session/note'; turnId: string; text: string }
  /** The session's permission mode changed (between turns or during one). */
  | { type: 'session/mode'; mode: string }
  /** The session's model changed (its context window follows it). */
  | { type: 'session/model'; model: string }
  /** The session's thought level changed (its next requests are sent at it). */
  | { type: 'session/thought-level'; level: string }
  /** After a model response: how full the context is, and what the session cost so far. */
  | ({ type: 'context/usage'; turnId: string } & ContextUsage)
  /** A compaction began (`trigger`: the window filled, a person asked, the server refused). */
  | { type: 'context/compacting'; turnId: string; compactionId: string; trigger: CompactionTrigger }
  /** A compaction ended: what it changed in the conversation the model is sent. */
  | ({ type: 'context/compacted'; turnId: string } & CompactionRecord)
  /**
   * A context source's note for the model (project instructions that now apply), sent as a
   * user-side message where it was logged. `display` is what a person is shown of it; `data`
   * is the source's own record of what it sent, read back when the session is loaded.
   */
  | {
      type: 'context/note'
      turnId: string
      source: string
      text: string
      display?: string
      data?: unknown
    }

export type CompactionTrigger = 'auto' | 'command' | 'refused'

export interface ContextUsage {
  /** Tokens in the context: the last request's reported usage, plus an estimate since. */
  used: number
  /** The model's context window. */
  size: number
  /** The session's cumulative cost, when the model has prices. */
  cost?: { amount: number; currency: string }
}

/**
 * One compaction as the log keeps it, so a loaded session rebuilds the same conversation:
 * tool outputs replaced (by one-line stubs, or cut), and, when the older conversation was
 * summarised, the message that opens the conversation from then on and how many of the last
 * messages followed it unchanged.
 */
export interface CompactionRecord {
  compactionId: string
  trigger: CompactionTrigger
  /** Tool outputs replaced, by call id, with what the model is sent instead. */
  replaced: { callId: string; content: string }[]
  /** How many of `replaced` are elisions (the rest are cuts of recent outputs). */
  elided: number
  summary?: { text: string; opening: string; keep: number }
  /** Why the summary could not be made, when it was wanted. */
  summaryError?: string
  /** Estimated tokens of the request before and after. */
  before: number
  after: number
}

export type TurnEnd = Extract<SessionEvent, { type: 'turn/end' }>

export interface Session {
  readonly header: SessionHeader
  /**
   * What the session shares with its tree: its root's id, mode and channels to the person and
   * the editor. A root session owns it; a child session holds its root's.
   */
  readonly scope: ToolSessionScope
  /** The log so far, oldest first. */
  readonly events: readonly SessionEvent[]
}

export interface AgentCreateOptions {
  /** Absolute path of an existing directory. */
  cwd: string
  /** More directories the session works in (absolute, existing); with `cwd`, its roots. */
  additionalDirectories?: string[]
  /** The session's initial permission mode (see `agent.setMode`). */
  mode?: string
  /** Extra prose appended to the assembled system prompt. */
  systemPrompt?: string
  /** Model name passed to ctx.llm. */
  model?: string
  /**
   * The session's ways to the person and the editor (asking, notices, files), as its host gives
   * them; its calls and its child sessions' use them. None: its calls can ask and tell nobody.
   */
  channels?: ToolSessionChannels
}

/** What a stored session is restored with: its workspace and roots are the stored ones. */
export type AgentRestoreOptions = Omit<AgentCreateOptions, 'cwd' | 'additionalDirectories'>

/**
 * What a child session is created with: its workspace, roots, mode and channels are its root
 * session's. `parentCallId`: the parent's tool call that starts it (a host shows the child's
 * cards under it); `title`: what a host calls it (else its first message's).
 */
export interface AgentChildOptions {
  systemPrompt?: string
  model?: string
  parentCallId?: string
  title?: string
}

/** What the agent host knows of a model (see ctx.llm.modelInfo). */
export interface AgentModelInfo {
  id: string
  contextWindow: number
}

export type SessionListener = (event: SessionEvent) => void
