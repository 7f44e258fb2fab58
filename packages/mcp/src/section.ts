// The prompt section that names a session's MCP servers that are up and their tools, so the
// model knows where those tools come from, and the servers that stopped, so it knows why their
// tools are gone. Pure.

export function serversSection(
  servers: readonly { name: string; tools: string[] }[],
  stopped: readonly string[] = [],
): string | undefined {
  if (servers.length === 0 && stopped.length === 0) return undefined
  const lines = servers.map((server) => {
    const tools = server.tools.length > 0 ? server.tools.join(', ') : 'no tools'
    return `- ${server.name}: ${tools}`
  })
  if (stopped.length > 0) {
    lines.push(`Stopped during this session, their tools are gone: ${stopped.join(', ')}.`)
  }
  return [
    '# MCP servers',
    'The person connected these MCP servers to this session. Their tools are named',
    '`mcp__<server>__<tool>` and run in those servers; use them for what they offer.',
    ...lines,
  ].join('\n')
}
