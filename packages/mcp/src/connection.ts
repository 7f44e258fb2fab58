// One MCP server of one session, through the SDK's client: started (a child process over stdio,
// or streamable HTTP), its tools listed (every page), its calls made with a timeout and the
// caller's signal (either cancels the call on the server: notifications/cancelled), told when
// its tool list changes or when it goes away, and closed: stdin ended, then SIGTERM, then
// SIGKILL to the server's whole process group and its descendants (./group-stdio), so nothing it started outlives
// it. A call listens to the caller's signal only while it runs: a turn's signal outlives many
// calls. The SDK is loaded by the first `connect()` (./sdk). Not the tools' definitions
// (./tool) nor the session (./session).
import type { Client } from '@modelcontextprotocol/sdk/client'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { CallToolResult, ErrorCode, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { McpServerConfig } from './config'
import { McpError } from './errors'
import { GroupStdioTransport } from './group-stdio'
import { loadMcpSdk } from './sdk'
import type { McpSdk } from './sdk'
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

/** What `connect()` made once the SDK was loaded. */
interface Started {
  sdk: McpSdk
  client: Client
  transport: Transport
}

export class McpConnection {
  readonly name: string
  readonly stderr = new StderrHead()
  private started: Started | undefined
  private closing = false
  private gone = false
  private markExited = () => {}
  private readonly exited = new Promise<void>((resolve) => (this.markExited = resolve))

  constructor(private readonly options: McpConnectionOptions) {
    this.name = options.config.name
  }

  /** True once the server went away on its own. */
  get isGone(): boolean {
    return this.gone
  }

  /** Starts the server and initializes the session; rejects with what went wrong. */
  async connect(): Promise<void> {
    const sdk = await loadMcpSdk()
    if (this.closing) throw new Error(`MCP server "${this.name}" was closed before it started.`)
    const { options } = this
    const client = new sdk.Client({ name: 'dsh', version: options.version }, { capabilities: {} })
    const transport = this.transportOf(sdk, options.config)
    client.onclose = () => {
      this.markExited()
      if (this.closing || this.gone) return
      this.gone = true
      options.onGone()
    }
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      if (!this.closing && !this.gone) options.onToolsChanged()
    })
    this.started = { sdk, client, transport }
    await client.connect(transport, { timeout: options.connectTimeoutMs })
  }

  /** Every tool the server offers (all pages). */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = []
    let cursor: string | undefined
    const { client } = this.connected()
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor })
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
  async callTool(
    tool: string,
    args: unknown,
    signal?: AbortSignal,
    onProgress?: (text: string) => void,
  ): Promise<CallToolResult> {
    const { callTimeoutMs } = this.options
    if (this.gone) throw this.goneError(tool)
    const { sdk, client } = this.connected()
    const isCode = (error: unknown, code: ErrorCode): boolean =>
      error instanceof sdk.McpError && error.code === code
    // The SDK keeps its abort listener on the signal it is given until that signal is gone: it
    // gets this call's own, which the caller's signal aborts for as long as the call runs.
    const call = new AbortController()
    const forward = () => call.abort(signal?.reason)
    if (signal?.aborted) forward()
    else signal?.addEventListener('abort', forward, { once: true })
    try {
      const params = { name: tool, arguments: args as Record<string, unknown> }
      // With `onprogress` the SDK sends a progressToken; each notification is said in words.
      const result = await client.callTool(params, undefined, {
        timeout: callTimeoutMs,
        signal: call.signal,
        ...(onProgress !== undefined && {
          onprogress: (progress: McpProgress) => onProgress(progressText(progress)),
        }),
      })
      return result as CallToolResult
    } catch (error) {
      if (signal?.aborted) throw new Error(`The call of "${tool}" was cancelled.`, { cause: error })
      if (this.gone || isCode(error, sdk.ErrorCode.ConnectionClosed)) throw this.goneError(tool)
      if (isCode(error, sdk.ErrorCode.RequestTimeout)) {
        const seconds = Math.round(callTimeoutMs / 100) / 10
        const message = `"${tool}" of MCP server "${this.name}" gave no answer within ${seconds} s; the call was cancelled on the server. Try again with a smaller request, or do without this tool.`
        throw new McpError('MCP_TIMEOUT', message, { cause: error })
      }
      const reason = error instanceof Error ? error.message : String(error)
      const message = `MCP server "${this.name}" could not run "${tool}": ${reason}`
      throw new McpError('MCP_CALL_FAILED', message, { cause: error })
    } finally {
      signal?.removeEventListener('abort', forward)
    }
  }

  /** What the server said of itself at initialize (`instructions`), when it said anything. */
  instructions(): string | undefined {
    const text = this.started === undefined ? undefined : this.connected().client.getInstructions()
    return text?.trim() || undefined
  }

  /** Closes the connection; a server's group gets its stdin ended, then SIGTERM, then SIGKILL. */
  async close(): Promise<void> {
    if (this.closing) return this.exited
    this.closing = true
    const { started } = this
    if (started === undefined) {
      this.markExited() // closed before `connect()` made anything: no process to end
      return
    }
    const { client, transport } = started
    const server = transport instanceof GroupStdioTransport ? transport : undefined
    // Its descendants, seen while the server still holds them (a `setsid` one too).
    server?.noteDescendants()
    const closed = client.close().catch(() => undefined)
    if (server === undefined || server.pid === null) {
      await closed
      return
    }
    if (await settlesWithin(this.exited, GRACE_MS)) return
    server.signal('SIGTERM')
    if (await settlesWithin(this.exited, TERM_MS)) return
    server.signal('SIGKILL')
    await settlesWithin(this.exited, TERM_MS)
  }

  private goneError(tool: string): McpError {
    const said = this.stderr.lines()
    const tail = said.length > 0 ? ` It printed:\n${said.join('\n')}` : ''
    const message = `MCP server "${this.name}" stopped, so "${tool}" could not finish; its tools are gone for this session.${tail}`
    return new McpError('MCP_SERVER_GONE', message)
  }

  /** The SDK and client of a connection `connect()` started. */
  private connected(): Started {
    if (this.started === undefined) throw new Error(`MCP server "${this.name}" is not connected.`)
    return this.started
  }

  private transportOf(sdk: McpSdk, config: McpServerConfig): Transport {
    if (config.transport === 'http') {
      return new sdk.StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
      })
    }
    const transport = new GroupStdioTransport(sdk, {
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: this.options.cwd,
    })
    this.stderr.follow(transport.stderr)
    return transport
  }
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

interface McpProgress {
  progress: number
  total?: number
  message?: string
}

/** `3 of 10: copying files`, `40%`, or the message alone. */
export function progressText({ progress, total, message }: McpProgress): string {
  const share =
    total !== undefined && total > 0
      ? total === 100
        ? `${Math.round(progress)}%`
        : `${progress} of ${total}`
      : undefined
  return (
    [share, message?.trim() || undefined].filter((part) => part !== undefined).join(': ') ||
    `${progress}`
  )
}
