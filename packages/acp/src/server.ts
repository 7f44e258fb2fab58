// AcpServer: the `ctx.acp` service object. It serves ACP connections over any ndjson stream
// pair (stdio, a socket, in-memory streams) with the agents and tools of the plugin's context,
// keeps the open connections, and closes them all when the plugin is disposed.
// Not the per-connection wiring (./bridge).
import type { Implementation, Stream } from '@agentclientprotocol/sdk'
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-agent' // for its augmentation: ctx.agents
import type {} from '@deepseek-ai/dsh-tools' // for its augmentation: ctx.tools
import { serveAcpConnection } from './bridge'
import type { AcpServeHandle } from './bridge'

export class AcpServer {
  private readonly connections = new Set<AcpServeHandle>()

  constructor(
    private readonly ctx: Context,
    readonly agentInfo: Implementation,
  ) {}

  /**
   * Serves one client over `stream` (e.g. `ndJsonStream(output, input)` from the SDK) until
   * it disconnects, `close()` is called, or the plugin is disposed.
   */
  serve(stream: Stream): AcpServeHandle {
    const { ctx } = this
    const handle = serveAcpConnection(
      {
        // Created from the plugin's context, so the agents go when the plugin goes.
        createAgent: (cwd) => ctx.agents.create({ cwd }),
        tools: {
          presentCall: (name, args, view) => ctx.tools.presentCall(name, args, view),
          presentResult: (name, args, result, view) =>
            ctx.tools.presentResult(name, args, result, view),
        },
        agentInfo: this.agentInfo,
      },
      stream,
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
