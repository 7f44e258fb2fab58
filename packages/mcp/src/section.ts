// The prompt section that names a session's MCP servers that are up and their tools, so the
// model knows where those tools come from. Pure.

export function serversSection(
  servers: readonly { name: string; tools: string[] }[],
): string | undefined {
  if (servers.length === 0) return undefined
  const lines = servers.map((server) => {
    const tools = server.tools.length > 0 ? server.tools.join(', ') : 'no tools'
    return `- ${server.name}: ${tools}`
  })
  return [
    '# MCP servers',
    'The person connected these MCP servers to this session. Their tools are named',
    '`mcp__<server>__<tool>` and run in those servers; use them for what they offer.',
    ...lines,
  ].join('\n')
}
