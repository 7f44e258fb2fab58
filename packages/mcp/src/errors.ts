// McpError: the failures of a call to an MCP server's tool, each with a code the model and a UI
// can tell apart, and a message saying what happened and what to do.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const MCP_ERROR_CODES = [
  /** The server answered the call with a result marked as an error. */
  'MCP_TOOL_ERROR',
  /** The server stopped (crashed, exited) or its connection closed. */
  'MCP_SERVER_GONE',
  /** The call got no answer within the call timeout; it was cancelled on the server. */
  'MCP_TIMEOUT',
  /** The server refused the call or answered it with something that is not a tool result. */
  'MCP_CALL_FAILED',
] as const

export type McpErrorCode = (typeof MCP_ERROR_CODES)[number]

export class McpError extends codedError('McpError', MCP_ERROR_CODES) {}

/** True for a McpError (of `code`, when given). */
export const isMcpError = guardOf(McpError)
