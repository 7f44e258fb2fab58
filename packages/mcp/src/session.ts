// The MCP servers of one session: each connected in the background (the session's tools are
// held as arriving until every server has started or failed), its tools registered for this
// session only and listed again when the server says they changed, a prompt section naming the
// servers that are up, and each failure (a server that does not start, or goes away) told to
// the person once, with the first lines the server printed on stderr; the session goes on
// without that server. `close()` ends every server, children included.
import type ToolRegistry from '@deepseek-ai/dsh-tools'
import type SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import type { McpServerConfig } from './config'
import { McpConnection } from './connection'
import { serversSection } from './section'
import { mcpToolDefinition } from './tool'
import type { McpNotice, McpSessionOptions } from './types'

export interface McpSessionHost {
  tools: ToolRegistry
  systemPrompt: SystemPrompt
  connectTimeoutMs: number
  callTimeoutMs: number
  version: string
  warn(message: string): void
}

interface Server {
  connection: McpConnection
  /** The registrations of its tools (by model name), undone when they change or it goes. */
  tools: Map<string, () => void>
  ready: boolean
}

export class McpSession {
  private readonly servers = new Map<string, Server>()
  /** The servers that went away during the session, by name. */
  private readonly stopped: string[] = []
  private removeSection: (() => void) | undefined
  private closed = false
  /** Ends the session's wait for its tools (see ToolRegistry.hold). */
  private readonly endWait: () => void
  /** Settles once every server has started or failed. */
  readonly ready: Promise<void>

  constructor(
    private readonly host: McpSessionHost,
    private readonly options: McpSessionOptions,
    configs: readonly McpServerConfig[],
  ) {
    const starts: Promise<void>[] = []
    for (const config of configs) {
      if (this.servers.has(config.name)) {
        this.notify(config.name, 'was given twice', 'Only the first server of this name is used.')
        continue
      }
      const server: Server = {
        connection: this.connectionOf(config),
        tools: new Map(),
        ready: false,
      }
      this.servers.set(config.name, server)
      starts.push(this.start(server))
    }
    this.ready = Promise.all(starts).then(() => undefined)
    this.endWait = starts.length > 0 ? host.tools.hold(options.id, this.ready) : () => {}
  }

  /** The servers that are up, with their tools' model names. */
  up(): { name: string; tools: string[]; instructions?: string }[] {
    return [...this.servers.values()]
      .filter((server) => server.ready)
      .map((server) => {
        const instructions = server.connection.instructions()
        const name = server.connection.name
        const tools = [...server.tools.keys()]
        return instructions === undefined ? { name, tools } : { name, tools, instructions }
      })
  }

  /** Unregisters every tool and closes every server; resolves once their processes ended. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.endWait()
    const servers = [...this.servers.values()]
    for (const server of servers) this.dropTools(server)
    this.removeSection?.()
    this.removeSection = undefined
    await Promise.all(servers.map((server) => server.connection.close()))
  }

  private connectionOf(config: McpServerConfig): McpConnection {
    const { host } = this
    let server: Server | undefined
    const connection = new McpConnection({
      config,
      cwd: this.options.cwd,
      connectTimeoutMs: host.connectTimeoutMs,
      callTimeoutMs: host.callTimeoutMs,
      version: host.version,
      onToolsChanged: () => {
        server ??= this.servers.get(config.name)
        if (server?.ready) void this.refresh(server)
      },
      onGone: () => {
        server ??= this.servers.get(config.name)
        if (server?.ready) this.lose(server)
      },
    })
    return connection
  }

  private async start(server: Server): Promise<void> {
    const { connection } = server
    try {
      await connection.connect()
      const tools = await connection.listTools()
      if (this.closed) return
      server.ready = true
      this.register(server, tools)
    } catch (error) {
      if (this.closed) return
      this.servers.delete(connection.name)
      // Its process ended (or is ended now), so what it printed has been read.
      await connection.close()
      await settle()
      const reason = error instanceof Error ? error.message : String(error)
      this.notify(connection.name, 'did not start', `${reason}${this.printed(connection)}`)
    }
  }

  private async refresh(server: Server): Promise<void> {
    try {
      const tools = await server.connection.listTools()
      if (this.closed || !server.ready) return
      this.dropTools(server)
      this.register(server, tools)
    } catch (error) {
      // The list could not be read again (the server is going away): its old tools stay until
      // the server is known gone.
      this.host.warn(
        `MCP server "${server.connection.name}": tools not listed again: ${String(error)}`,
      )
    }
  }

  private register(server: Server, tools: Awaited<ReturnType<McpConnection['listTools']>>): void {
    const { id } = this.options
    for (const tool of tools) {
      try {
        const def = mcpToolDefinition(server.connection, tool)
        server.tools.set(def.name, this.host.tools.register(def, { session: id }))
      } catch (error) {
        // A tool whose name or schema we cannot offer is left out; the server's others stay.
        this.host.warn(
          `MCP server "${server.connection.name}": tool "${tool.name}" left out: ${String(error)}`,
        )
      }
    }
    this.updateSection()
  }

  private lose(server: Server): void {
    if (this.closed) return
    server.ready = false
    this.dropTools(server)
    this.servers.delete(server.connection.name)
    this.stopped.push(server.connection.name)
    this.updateSection()
    const { connection } = server
    void settle().then(() => {
      const detail = `Its tools are gone for this session; the session goes on without them.${this.printed(connection)}`
      this.notify(connection.name, 'stopped', detail)
    })
  }

  private dropTools(server: Server): void {
    for (const dispose of server.tools.values()) dispose()
    server.tools.clear()
  }

  private updateSection(): void {
    this.removeSection?.()
    this.removeSection = undefined
    const text = serversSection(this.up(), this.stopped)
    if (text === undefined) return
    const section = { name: 'mcp-servers', text, order: 900 }
    this.removeSection = this.host.systemPrompt.add(section, { session: this.options.id })
  }

  private printed(connection: McpConnection): string {
    const lines = connection.stderr.lines()
    return lines.length > 0 ? `\n\nIt printed on stderr:\n${lines.join('\n')}` : ''
  }

  private notify(name: string, what: string, description: string): void {
    if (this.closed) return
    const notice: McpNotice = {
      title: `MCP server "${name}" ${what}.`,
      description,
      severity: 'error',
    }
    this.host.warn(`${notice.title} ${description}`)
    this.options.notify?.(notice)
  }
}

/** A moment for the last of a dead process's stderr, piped through a stream, to arrive. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20))
}
