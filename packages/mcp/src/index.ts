// ctx.mcp: the MCP servers a session was opened with, connected per session through the
// official SDK's client. `open` starts a session's servers in the background and returns at
// once; their tools are registered for that session only (ctx.tools), named
// `mcp__<server>__<tool>`, with a prompt section naming the servers (ctx.systemPrompt). A host
// (the ACP app) opens a session's servers when the session opens and closes them with it.
// Disposing the plugin closes every session's servers. No UI protocol here.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import { configOf, untraced } from '@deepseek-ai/dsh-tools'
import type { z } from 'zod'
import { Config, McpServerConfig } from './config'
import type { McpConfig } from './config'
import { McpSession } from './session'
import type { McpOpenOptions, McpSessionHandle } from './types'

declare module 'cordis' {
  interface Context {
    mcp: McpServers
  }
}

const VERSION = '0.1.0'

export default class McpServers extends Service {
  static inject = ['tools', 'systemPrompt']
  static Config = Config

  private readonly sessions = new Set<McpSession>()
  private readonly options: z.output<typeof Config>

  constructor(
    private readonly host: Context,
    config: McpConfig,
  ) {
    super(host, 'mcp')
    this.options = configOf(Config, config)
    host.effect(() => () => this.closeAll(), 'mcp sessions')
  }

  /**
   * Starts the session's servers in the background and returns at once. Throws a TypeError
   * naming the bad entry when a server's config is malformed (nothing is started then).
   */
  open(options: McpOpenOptions): McpSessionHandle {
    const configs = options.servers.map((server, index) => {
      const parsed = McpServerConfig.safeParse(server)
      if (parsed.success) return parsed.data
      const problem = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'server'}: ${issue.message}`)
        .join('; ')
      throw new TypeError(`MCP server ${index + 1} is malformed: ${problem}`)
    })
    const { host, sessions } = this
    const logger = host.logger('mcp')
    const session = new McpSession(
      {
        tools: untraced(host.tools),
        systemPrompt: untraced(host.systemPrompt),
        ...this.options,
        version: VERSION,
        warn: (message) => logger.warn(message),
      },
      options,
      configs,
    )
    sessions.add(session)
    return {
      ready: session.ready,
      up: () => session.up(),
      close: async () => {
        sessions.delete(session)
        await session.close()
      },
    }
  }

  /** The number of sessions with servers open. */
  get size(): number {
    return this.sessions.size
  }

  private async closeAll(): Promise<void> {
    const sessions = [...this.sessions]
    this.sessions.clear()
    await Promise.all(sessions.map((session) => session.close()))
  }
}

export { Config, McpServerConfig } from './config'
export type { McpConfig, McpServerConfigInput } from './config'
export { MCP_ERROR_CODES, McpError, isMcpError } from './errors'
export type { McpErrorCode } from './errors'
export { mcpToolName } from './names'
export type * from './types'
