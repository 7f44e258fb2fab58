// The shapes a session's MCP servers are given in, checked with zod at the boundary: a server
// started as a child process (stdio: command, args, env) or reached over streamable HTTP (url,
// headers). Names are what the person called them; they prefix the tools (`mcp__<name>__…`).
import { z } from 'zod'

export const McpStdioServerConfig = z.object({
  name: z.string().min(1),
  transport: z.literal('stdio').default('stdio'),
  /** The executable (an absolute path, or a name looked up on PATH). */
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** Set on top of a minimal inherited environment (HOME, PATH, SHELL, TERM, USER, LOGNAME). */
  env: z.record(z.string(), z.string()).default({}),
})

export const McpHttpServerConfig = z.object({
  name: z.string().min(1),
  transport: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).default({}),
})

export const McpServerConfig = z.union([McpHttpServerConfig, McpStdioServerConfig])

export type McpServerConfigInput = z.input<typeof McpServerConfig>
export type McpServerConfig = z.output<typeof McpServerConfig>

export const Config = z
  .object({
    /** The longest wait for one tool call, in ms; past it the call is cancelled on the server. */
    callTimeoutMs: z.number().int().positive().default(60_000),
    /** The longest wait for a server to start and answer `initialize`, in ms. */
    connectTimeoutMs: z.number().int().positive().default(30_000),
  })
  .prefault({})

export type McpConfig = z.input<typeof Config>
