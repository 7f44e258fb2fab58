// AcpServer: the `ctx.acp` service object. It serves ACP connections over any ndjson stream
// pair (stdio, a socket, in-memory streams) with the agents and tools of the plugin's context,
// keeps the open connections, and closes them all when the plugin is disposed. A session's
// questions, notices and editor files travel on the channels its record gives its agent's
// session (./sessions/session-record), not through here. Not the per-connection wiring (./bridge).
import type { Implementation, McpCapabilities, SessionMode, Stream } from '@agentclientprotocol/sdk'
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-agent' // for its augmentation: ctx.agents
import type {} from '@deepseek-ai/dsh-tools' // for its augmentation: ctx.tools
import { serveAcpConnection } from './bridge'
import type { AcpServeHandle, AcpServeOptions } from './bridge'
import type { AcpNotice } from './sessions/session-opening'

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

  constructor(
    private readonly ctx: Context,
    private readonly options: AcpServerOptions,
  ) {
    this.agentInfo = options.agentInfo
  }

  /**
   * Serves one client over `stream` (e.g. `ndJsonStream(output, input)` from the SDK) until
   * it disconnects, `close()` is called, or the plugin is disposed.
   */
  serve(stream: Stream, serveOptions: AcpServeOptions = {}): AcpServeHandle {
    const { ctx } = this
    const handle = serveAcpConnection(
      {
        // Created from the plugin's context, so the agents go when the plugin goes.
        createAgent: (cwd, options) => ctx.agents.create({ cwd, ...options }),
        restoreAgent: (id, channels) => ctx.agents.restoreInSlices(id, { channels }),
        storedSessions: (options) => ctx.agents.stored(options),
        storedChildren: (id) => ctx.agents.storedChildren(id),
        deleteSession: (id) => ctx.agents.delete(id),
        stores: ctx.agents.stores,
        takesImages: () => ctx.agents.takesImages(),
        agentInfo: this.agentInfo,
        modes: this.options.modes,
        defaultMode: this.options.defaultMode,
        models: {
          models: () => ctx.agents.models(),
          get defaultModel() {
            return ctx.agents.defaultModel
          },
          moved: (model) => ctx.agents.moved(model),
          thoughtLevels: (model) => ctx.agents.thoughtLevels(model),
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
              ...(record.elicit && { elicit: record.elicit }),
              onClose: (close: () => Promise<void> | void) => record.onClose(close),
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
      serveOptions,
    )
    this.connections.add(handle)
    void handle.closed.then(() => this.connections.delete(handle))
    return handle
  }

  /** The number of connections being served. */
  get size(): number {
    return this.connections.size
  }

  /** Closes every connection; resolves when their turns ended and agents were released. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.connections].map((handle) => handle.close()))
  }
}
