// What the bridge needs of its host to serve a connection: creating, restoring, listing and
// deleting sessions' agents, what the server offers (modes, models, MCP transports, images), and
// the word that a session opened. Types only.
import type {
  Implementation,
  McpCapabilities,
  McpServer,
  SessionMode,
} from '@agentclientprotocol/sdk'
import type {
  Agent,
  SessionListOptions,
  SessionListPage,
  StoredChildSession,
} from '@deepseek-ai/dsh-agent'
import type { ToolSessionChannels } from '@deepseek-ai/dsh-tools'
import type { AcpSessionRecord } from './sessions/session-record'
import type { AcpModelSource } from './sessions/session-options'

export interface AcpBridgeDeps {
  /**
   * Creates the agent of a new session with its channels (checks the directories; throws
   * AGENT_BAD_CWD).
   */
  createAgent(
    cwd: string,
    options: { additionalDirectories?: string[]; mode?: string; channels: ToolSessionChannels },
  ): Agent
  /**
   * A stored session as a live agent with `channels` (rejects AGENT_SESSION_NOT_FOUND, _LOCKED,
   * …); a long one is read in slices.
   */
  restoreAgent(id: string, channels: ToolSessionChannels): Agent | Promise<Agent>
  /** The stored sessions, newest first (throws a TypeError for a bad cursor). */
  storedSessions(options: SessionListOptions): SessionListPage
  /** The child sessions stored under session `id`, oldest first (a load shows them). */
  storedChildren(id: string): StoredChildSession[]
  /** Removes a stored session that is not live (throws AGENT_SESSION_NOT_FOUND, _LOCKED, …). */
  deleteSession(id: string): void
  /** Sessions are stored: load, list and resume are offered. */
  stores: boolean
  /** The model new sessions start with takes images (`promptCapabilities.image`). */
  takesImages(): boolean
  agentInfo: Implementation
  /** The modes a session can be in; empty: no modes are offered. */
  modes: readonly SessionMode[]
  /** The mode a new session starts in (one of `modes`; undefined when there are none). */
  defaultMode: string | undefined
  /** The models a session may use: offered as its `model` config option. */
  models: AcpModelSource
  /** A session was opened by a request, with these MCP servers; called just before its response. */
  onOpened(record: AcpSessionRecord, mcpServers: readonly McpServer[]): void
  /** The MCP transports advertised besides stdio. */
  mcpCapabilities: McpCapabilities
}
