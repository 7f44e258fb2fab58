// The prompt section that names a session's MCP servers that are up, their tools and what each
// server says of itself (its `instructions`, clipped), so the model knows where those tools come
// from and how to use them, and the servers that stopped, so it knows why their tools are gone.
// Pure.

/** The most of one server's instructions the prompt carries, in characters. */
export const MAX_INSTRUCTIONS_CHARS = 2000

function clipped(text: string): string {
  if (text.length <= MAX_INSTRUCTIONS_CHARS) return text
  return `${text.slice(0, MAX_INSTRUCTIONS_CHARS)}… [the server's instructions were cut to ${MAX_INSTRUCTIONS_CHARS} characters]`
}

export function serversSection(
  servers: readonly { name: string; tools: string[]; instructions?: string }[],
  stopped: readonly string[] = [],
): string | undefined {
  if (servers.length === 0 && stopped.length === 0) return undefined
  const lines = servers.map((server) => {
    const tools = server.tools.length > 0 ? server.tools.join(', ') : 'no tools'
    const line = `- ${server.name}: ${tools}`
    if (server.instructions === undefined) return line
    const said = clipped(server.instructions).replace(/\n/g, '\n  ')
    return `${line}\n  Its instructions: ${said}`
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
