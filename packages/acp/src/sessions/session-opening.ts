// What the bridge tells the app when a session of a connection opens (session/new, /load,
// /resume): the `acp/session-open` event's argument. It carries what the client opened the
// session with that the bridge itself does not use (its MCP servers), a way to tell the person
// something outside the conversation, and a way to be called when the session closes. The
// event goes out just after the response, so nothing a listener does delays or precedes it.
import type { McpServer } from '@agentclientprotocol/sdk'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { AcpElicit } from './elicit'
import type { AcpNotice } from './notice'

export interface AcpSessionOpening {
  id: string
  agent: Agent
  /** The MCP servers the client gave the session, as it gave them (ACP shapes). */
  mcpServers: readonly McpServer[]
  /**
   * Shows a notice to the person: a `notice` update when the client advertised
   * `session.notices`, else an agent message. Dropped once the session is closed.
   */
  notify(notice: AcpNotice): void
  /** The session's channel to the person's forms; absent when the client shows none. */
  elicit?: AcpElicit
  /** Runs when the session closes (before session/close is answered) or its connection goes. */
  onClose(close: () => Promise<void> | void): void
}

export type { AcpNotice } from './notice'
export { toAcpNotice } from './notice'
