// The parts of the MCP SDK a connection uses (./sdk-modules), loaded on first use (a session
// with MCP servers), once per process: the SDK's client, transports and schemas take long to
// load, and a session without MCP servers needs none of them. Types only may be imported from
// the SDK elsewhere.
export type McpSdk = typeof import('./sdk-modules')

let loading: Promise<McpSdk> | undefined

/** The SDK's parts, loaded by the first call; later calls share that load. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= import('./sdk-modules')
  return loading
}
