// The parts of the MCP SDK a connection uses, in one module that ./sdk loads on first use: the
// app's build makes it a file of its own beside the bundle (with the SDK's zod and ajv), so a
// start neither reads nor holds it.
export { Client } from '@modelcontextprotocol/sdk/client'
// The environment a stdio server inherits before its own `env`.
export { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
export { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
export {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
