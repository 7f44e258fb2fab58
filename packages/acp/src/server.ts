// AcpServer: the `ctx.acp` service object. It serves ACP connections over any ndjson stream
// pair (stdio, a socket, in-memory streams) with the agents and tools of the plugin's context,
// keeps the open connections, and closes them all when the plugin is disposed. It also routes
// a permission layer's questions (`tools/ask`) to the ACP session the call belongs to, whose
// client answers them, and a tool's notices (`tools/notice`) to the person of that session.
// Not the per-connection wiring (./bridge).
import type { Implementation, McpCapabilities, SessionMode, Stream } from '@agentclientprotocol/sdk'
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-agent' // for its augmentation: ctx.agents
import type { ToolExecution } from '@deepseek-ai/dsh-tools' // and its augmentation: ctx.tools
import { serveAcpConnection } from './bridge'
import type { AcpServeHandle } from './bridge'
import type { AcpSessionFiles } from './editor-files'
import type { AcpSessionRecord } from './session-record'
import type { AcpNotice } from './session-opening'

export interface AcpServerOptions {
  agentInfo: Implementation
  /** The modes a session can be in; empty: no modes are offered. */
  modes: readonly SessionMode[]
  /** The mode a new session starts in (one of `modes`). */
  defaultMode: string | undefined
  /** The MCP transports advertised besides stdio (a listener of acp/session-open connects them). */
  mcpCapabilities: McpCapabilities
}

export class AcpServer {
  readonly agentInfo: Implementation
  private readonly connections = new Set<AcpServeHandle>()
  /** The live sessions of every connection, by session id. */
  private readonly sessions = new Map<string, AcpSessionRecord>()

  constructor(
    private readonly ctx: Context,
    private readonly options: AcpServerOptions,
  ) {
    this.agentInfo = options.agentInfo
    ctx.on('tools/ask', (request, next) => this.recordOf(request.exec)?.ask(request) ?? next())
    ctx.on('tools/notice', (exec, notice) => this.recordOf(exec)?.tell(notice))
  }

  /**
   * Serves one client over `stream` (e.g. `ndJsonStream(output, input)` from the SDK) until
   * it disconnects, `close()` is called, or the plugin is disposed.
   */
  serve(stream: Stream): AcpServeHandle {
    const { ctx, sessions } = this
    const handle = serveAcpConnection(
      {
        // Created from the plugin's context, so the agents go when the plugin goes.
        createAgent: (cwd, options) => ctx.agents.create({ cwd, ...options }),
        restoreAgent: (id) => ctx.agents.restore(id),
        storedSessions: (options) => ctx.agents.stored(options),
        deleteSession: (id) => ctx.agents.delete(id),
        stores: ctx.agents.stores,
        agentInfo: this.agentInfo,
        modes: this.options.modes,
        defaultMode: this.options.defaultMode,
        models: {
          models: () => ctx.agents.models(),
          get defaultModel() {
            return ctx.agents.defaultModel
          },
        },
        onSession: (record) => {
          sessions.set(record.id, record)
          return () => sessions.delete(record.id)
        },
        // On the next turn of the event loop, once the handler's response was handed to the
        // connection: a listener neither delays the response nor sends anything before it.
        onOpened: (record, mcpServers) =>
          setImmediate(() => {
            if (record.isClosed) return
            const session = {
              id: record.id,
              agent: record.agent,
              mcpServers,
              notify: (notice: AcpNotice) => record.notify(notice),
              onClose: (close: () => Promise<void> | void) => record.onClose(close),
              commands: record.commands,
            }
            try {
              ctx.emit('acp/session-open', session)
            } catch (error) {
              // A listener broke: the session is open and goes on without what it would add.
              ctx.logger('acp').warn('an acp/session-open listener threw: %s', error)
            }
          }),
        mcpCapabilities: this.options.mcpCapabilities,
      },
      stream,
    )
    this.connections.add(handle)
    void handle.closed.then(() => this.connections.delete(handle))
    return handle
  }

  /**
   * The files of live session `sessionId` as its editor holds them (`fs/read_text_file`,
   * `fs/write_text_file` on its own connection); `undefined` for a session not served here.
   */
  filesOf(sessionId: string): AcpSessionFiles | undefined {
    return this.sessions.get(sessionId)?.files
  }

  /** The number of connections being served. */
  get size(): number {
    return this.connections.size
  }

  /** Closes every connection; resolves when their turns ended and agents were released. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.connections].map((handle) => handle.close()))
  }

  /** The session record a call belongs to, when it is one of this server's sessions. */
  private recordOf(exec: ToolExecution): AcpSessionRecord | undefined {
    const agent = exec.agent
    const record = agent === undefined ? undefined : this.sessions.get(agent.session.header.id)
    return record?.agent === agent ? record : undefined
  }
}
