// The parts of the MCP SDK a connection uses, loaded on first use (a session with MCP servers),
// once per process: the SDK's client, transports and schemas take long to load, and a session
// without MCP servers needs none of them. Types only may be imported from the SDK elsewhere.
import type * as Client from '@modelcontextprotocol/sdk/client'
import type * as Stdio from '@modelcontextprotocol/sdk/client/stdio.js'
import type * as StdioFraming from '@modelcontextprotocol/sdk/shared/stdio.js'
import type * as StreamableHttp from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type * as Types from '@modelcontextprotocol/sdk/types.js'

export interface McpSdk {
  Client: typeof Client.Client
  /** The environment a stdio server inherits before its own `env`. */
  getDefaultEnvironment: typeof Stdio.getDefaultEnvironment
  ReadBuffer: typeof StdioFraming.ReadBuffer
  serializeMessage: typeof StdioFraming.serializeMessage
  StreamableHTTPClientTransport: typeof StreamableHttp.StreamableHTTPClientTransport
  ErrorCode: typeof Types.ErrorCode
  McpError: typeof Types.McpError
  ToolListChangedNotificationSchema: typeof Types.ToolListChangedNotificationSchema
}

let loading: Promise<McpSdk> | undefined

/** The SDK's parts, loaded by the first call; later calls share that load. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= (async () => {
    const [client, stdio, framing, streamableHttp, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/shared/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ])
    return {
      Client: client.Client,
      getDefaultEnvironment: stdio.getDefaultEnvironment,
      ReadBuffer: framing.ReadBuffer,
      serializeMessage: framing.serializeMessage,
      StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
      ErrorCode: types.ErrorCode,
      McpError: types.McpError,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    }
  })()
  return loading
}
