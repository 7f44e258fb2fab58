// The name a model calls an MCP tool by: `mcp__<server>__<tool>`, each part with every
// character a model API refuses in a tool name turned into `_`, cut to the 64 characters those
// APIs take (a short hash of the full name keeps two long names apart).
import { createHash } from 'node:crypto'

const LIMIT = 64

export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${clean(server)}__${clean(tool)}`
  if (name.length <= LIMIT) return name
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8)
  return `${name.slice(0, LIMIT - hash.length - 1)}_${hash}`
}

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_')
}
