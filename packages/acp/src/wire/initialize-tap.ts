// What a client advertises that the SDK's stable app does not keep: it parses `initialize` by the
// stable schema and drops the unstable capabilities, among them `subagents`, which the bridge
// answers (../cards/subagent-updates). This tap reads the client's capabilities from the raw
// `initialize` message on its way in, before the app parses it; every message passes unchanged.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk'
import type { ClientCapabilities as AcpUnstableCapabilities } from '@agentclientprotocol/sdk/unstable'

export type { AcpUnstableCapabilities }

/** `stream`, with `seen` told the capabilities of each `initialize` request that comes in. */
export function tapInitialize(
  stream: Stream,
  seen: (capabilities: AcpUnstableCapabilities | undefined) => void,
): Stream {
  const tap = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      // Whatever came in passes on: the app answers what is not a message.
      const request = typeof message === 'object' && message !== null ? message : undefined
      if (request && 'method' in request && request.method === 'initialize' && 'id' in request) {
        const params = request.params as { clientCapabilities?: unknown } | undefined
        const capabilities = params?.clientCapabilities
        seen(
          typeof capabilities === 'object' && capabilities !== null
            ? (capabilities as AcpUnstableCapabilities)
            : undefined,
        )
      }
      controller.enqueue(message)
    },
  })
  return { readable: stream.readable.pipeThrough(tap), writable: stream.writable }
}
