// The app's MCP wiring: each ACP session's `mcpServers` (stdio, and http, which the bridge
// advertises) opened through ctx.mcp when the session opens, their failures shown to the person
// as the bridge shows notices, and the servers closed with the session. The ACP shapes (env and
// headers as name/value lists) become ctx.mcp's here; an `sse` server, not advertised, is told
// as not supported and left out.
import type { McpServer } from '@agentclientprotocol/sdk'
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'
import type { McpServerConfigInput } from '@deepseek-ai/dsh-mcp'
import type { Context } from 'cordis'

export const name = 'mcp-sessions'

export const inject = ['mcp', 'acp']

export function apply(ctx: Context): void {
  ctx.on('acp/session-open', (session) => openServers(ctx, session))
}

function openServers(ctx: Context, session: AcpSessionOpening): void {
  if (session.mcpServers.length === 0) return
  const servers: McpServerConfigInput[] = []
  for (const server of session.mcpServers) {
    const config = fromAcpMcpServer(server)
    if (config !== undefined) servers.push(config)
    else {
      const description = 'This agent connects MCP servers over stdio and streamable HTTP, not SSE.'
      session.notify({
        title: `MCP server "${server.name}" was left out.`,
        description,
        severity: 'warning',
      })
    }
  }
  try {
    const handle = ctx.mcp.open({
      id: session.id,
      cwd: session.agent.session.header.cwd,
      servers,
      notify: (notice) => session.notify(notice),
    })
    session.onClose(() => handle.close())
  } catch (error) {
    const description = error instanceof Error ? error.message : String(error)
    session.notify({ title: 'The MCP servers were not started.', description, severity: 'error' })
  }
}

/** An ACP server entry as ctx.mcp takes it; `undefined` for an SSE server. */
export function fromAcpMcpServer(server: McpServer): McpServerConfigInput | undefined {
  if ('type' in server && server.type === 'sse') return undefined
  if ('url' in server) {
    return { name: server.name, transport: 'http', url: server.url, headers: pairs(server.headers) }
  }
  return {
    name: server.name,
    command: server.command,
    args: server.args ?? [],
    env: pairs(server.env),
  }
}

function pairs(
  list: readonly { name: string; value: string }[] | null | undefined,
): Record<string, string> {
  return Object.fromEntries((list ?? []).map(({ name, value }) => [name, value]))
}
