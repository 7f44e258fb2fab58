// Types of ctx.mcp: a session's servers as a host opens them, and what the person is told.
import type { McpServerConfigInput } from './config'

/** Something the person should know about a server (it did not start, it stopped). */
export interface McpNotice {
  title: string
  description: string
  severity: 'error'
}

export interface McpSessionOptions {
  /** The session id: the servers' tools are registered for this session only. */
  id: string
  /** The session workspace: stdio servers start in it, read-only tools are judged reads of it. */
  cwd: string
  /** Tells the person a failure, once per server. */
  notify?(notice: McpNotice): void
}

export interface McpOpenOptions extends McpSessionOptions {
  servers: readonly McpServerConfigInput[]
}

/** The servers of one open session. */
export interface McpSessionHandle {
  /** Settles once every server has started or failed. */
  readonly ready: Promise<void>
  /** The servers that are up, with their tools' model names. */
  up(): { name: string; tools: string[] }[]
  /** Unregisters the tools and closes the servers; resolves once their processes ended. */
  close(): Promise<void>
}
