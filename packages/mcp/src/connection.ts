// One MCP server of one session, through the SDK's client: started (a child process over stdio,
// or streamable HTTP), its tools listed (every page), its calls made with a timeout and the
// caller's signal (either cancels the call on the server: notifications/cancelled), told when
// its tool list changes or when it goes away, and closed: stdin ended, then SIGTERM, then
// SIGKILL, so no child outlives it. Not the tools' definitions (./tool) nor the session (./session).
import type { Readable } from 'node:stream'
import { Client } from '@modelcontextprotocol/sdk/client'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  ErrorCode,
  McpError as SdkError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { McpServerConfig } from './config'
import { McpError } from './errors'
import { StderrHead } from './stderr'

export interface McpConnectionOptions {
  config: McpServerConfig
  /** The directory a stdio server starts in (the session workspace). */
  cwd: string
  connectTimeoutMs: number
  callTimeoutMs: number
  /** The server's tool list changed (notifications/tools/list_changed). */
  onToolsChanged(): void
  /** The connection ended without `close()` (the server crashed or exited). */
  onGone(): void
  version: string
}

const GRACE_MS = 500
const TERM_MS = 1000

export class McpConnection {
  readonly name: string
  readonly stderr = new StderrHead()
  private readonly client: Client
  private readonly transport: Transport
  private closing = false
  private gone = false
  private markExited = () => {}
  private readonly exited = new Promise<void>((resolve) => (this.markExited = resolve))

  constructor(private readonly options: McpConnectionOptions) {
    this.name = options.config.name
    this.client = new Client({ name: 'dsh', version: options.version }, { capabilities: {} })
    this.transport = this.transportOf(options.config)
    this.client.onclose = () => {
      this.markExited()
      if (this.closing || this.gone) return
      this.gone = true
      options.onGone()
    }
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (!this.closing && !this.gone) options.onToolsChanged()
    })
  }

  /** True once the server went away on its own. */
  get isGone(): boolean {
    return this.gone
  }

  /** Starts the server and initializes the session; rejects with what went wrong. */
  async connect(): Promise<void> {
    await this.client.connect(this.transport, { timeout: this.options.connectTimeoutMs })
  }

  /** Every tool the server offers (all pages). */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = []
    let cursor: string | undefined
    do {
      const page = await this.client.listTools(cursor === undefined ? undefined : { cursor })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    return tools
  }

  /**
   * Calls `tool` and resolves with its result (an `isError` result too). Rejects with
   * MCP_SERVER_GONE, MCP_TIMEOUT (cancelled on the server) or MCP_CALL_FAILED; when `signal`
   * aborts, with an uncoded error (the registry reports the call cancelled).
   */
  async callTool(tool: string, args: unknown, signal?: AbortSignal): Promise<CallToolResult> {
    const { callTimeoutMs } = this.options
    if (this.gone) throw this.goneError(tool)
    try {
      const params = { name: tool, arguments: args as Record<string, unknown> }
      const result = await this.client.callTool(params, undefined, {
        timeout: callTimeoutMs,
        ...(signal !== undefined && { signal }),
      })
      return result as CallToolResult
    } catch (error) {
      if (signal?.aborted) throw new Error(`The call of "${tool}" was cancelled.`, { cause: error })
      if (this.gone || isCode(error, ErrorCode.ConnectionClosed)) throw this.goneError(tool)
      if (isCode(error, ErrorCode.RequestTimeout)) {
        const seconds = Math.round(callTimeoutMs / 100) / 10
        const message = `"${tool}" of MCP server "${this.name}" gave no answer within ${seconds} s; the call was cancelled on the server. Try again with a smaller request, or do without this tool.`
        throw new McpError('MCP_TIMEOUT', message, { cause: error })
      }
      const reason = error instanceof Error ? error.message : String(error)
      const message = `MCP server "${this.name}" could not run "${tool}": ${reason}`
      throw new McpError('MCP_CALL_FAILED', message, { cause: error })
    }
  }

  /** Closes the connection; a child process gets its stdin ended, then SIGTERM, then SIGKILL. */
  async close(): Promise<void> {
    if (this.closing) return this.exited
    this.closing = true
    const pid = this.transport instanceof StdioClientTransport ? this.transport.pid : null
    const closed = this.client.close().catch(() => undefined)
    if (pid === null) {
      await closed
      return
    }
    if (await settlesWithin(this.exited, GRACE_MS)) return
    signal(pid, 'SIGTERM')
    if (await settlesWithin(this.exited, TERM_MS)) return
    signal(pid, 'SIGKILL')
    await settlesWithin(this.exited, TERM_MS)
  }

  private goneError(tool: string): McpError {
    const said = this.stderr.lines()
    const tail = said.length > 0 ? ` It printed:\n${said.join('\n')}` : ''
    const message = `MCP server "${this.name}" stopped, so "${tool}" could not finish; its tools are gone for this session.${tail}`
    return new McpError('MCP_SERVER_GONE', message)
  }

  private transportOf(config: McpServerConfig): Transport {
    if (config.transport === 'http') {
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
      })
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: this.options.cwd,
      stderr: 'pipe',
    })
    this.stderr.follow(transport.stderr as Readable | null)
    return transport
  }
}

function isCode(error: unknown, code: ErrorCode): boolean {
  return error instanceof SdkError && error.code === code
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    void promise.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {
    // The process is gone already.
  }
}
