// An MCP server's tool as one of ours: named `mcp__<server>__<tool>`, offered to the model with
// the server's own JSON Schema (the server checks the arguments), presented by the server's
// hints (title; kind read, delete only for a tool that says it deletes, edit for another
// destructive one, else other; the server's progress on the card while it runs) and judged by them (a read-only tool reads the
// workspace and runs unasked; any other is `other`, and "always allow" remembers this tool of
// this server for the session). A result marked `isError` fails the call with its text.
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolDefinition, ToolKind, ToolPresentationContent } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type { McpConnection } from './connection'
import { McpError } from './errors'
import { mcpToolName } from './names'
import { splitResult } from './result'

/** What the card of a finished call shows, beside the model's text. */
export interface McpCallDetails {
  blocks: ToolPresentationContent[]
}

/** The title a card shows: the tool's own (annotations first), else `<server>: <tool>`. */
export function mcpToolTitle(server: string, tool: Tool): string {
  return tool.annotations?.title || tool.title || `${server}: ${tool.name}`
}

/** Words in a tool's name or title that say it deletes. */
const DELETES = /(^|[^a-z])(delete|remove|rm|unlink|erase|destroy|drop|purge|trash)([^a-z]|$)/i

/**
 * The card's icon from the server's hints: `read` for a read-only tool; for a destructive one
 * (it may overwrite), `delete` only when its name or title says it deletes, else `edit`.
 */
export function mcpToolKind(tool: Tool): ToolKind {
  const hints = tool.annotations
  if (hints?.readOnlyHint === true) return 'read'
  if (hints?.destructiveHint !== true) return 'other'
  const words = [tool.name, tool.title, hints.title].filter((word) => word !== undefined)
  return words.some((word) => DELETES.test(word.replace(/([a-z])([A-Z])/g, '$1_$2')))
    ? 'delete'
    : 'edit'
}

export function mcpToolDefinition(connection: McpConnection, tool: Tool): ToolDefinition {
  const server = connection.name
  const name = mcpToolName(server, tool.name)
  const title = mcpToolTitle(server, tool)
  const kind = mcpToolKind(tool)
  const description =
    tool.description?.trim() || `The "${tool.name}" tool of MCP server "${server}".`
  return defineTool({
    name,
    description,
    input: z.looseObject({}),
    parameters: { ...tool.inputSchema, type: 'object' },
    async execute(args, exec) {
      // The server's progress notifications show on the card while the call runs.
      const progress = (text: string) => exec.report?.({ type: 'status', text })
      const result = await connection.callTool(tool.name, args, exec.signal, progress)
      const { text, blocks } = splitResult(result)
      if (result.isError === true) {
        const message =
          text || `"${tool.name}" of MCP server "${server}" failed without saying why.`
        throw new McpError('MCP_TOOL_ERROR', message)
      }
      const details: McpCallDetails = { blocks }
      return { content: text === '' ? '(no output)' : text, details }
    },
    presentCall: () => ({ title, kind }),
    presentResult(_args, result) {
      const details = result.details as McpCallDetails | undefined
      if (result.isError || details === undefined || details.blocks.length === 0) return undefined
      return { title, content: details.blocks }
    },
    // Judged as working in the session workspace (its stdio servers start there), so a person
    // may always allow a tool there; what a server does is its own, hence `other` unless read-only.
    access(_args, exec) {
      const scope = { scope: [exec.session.header.cwd] }
      if (kind === 'read') return { effect: 'read', ...scope }
      const always = { keys: [name], label: `${title} (${server}) in this session` }
      return { effect: 'execute', ...scope, always }
    },
  })
}
