// Two in-memory byte pipes: what the client writes the agent reads, and back. Enough to connect
// the SDK's client to the bridge in one process; the recording harness is acp-testing's.
import { ndJsonStream } from '@agentclientprotocol/sdk'
import type { Stream } from '@agentclientprotocol/sdk'

export function streamPair(): { agent: Stream; client: Stream } {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>()
  const toClient = new TransformStream<Uint8Array, Uint8Array>()
  return {
    agent: ndJsonStream(toClient.writable, toAgent.readable),
    client: ndJsonStream(toAgent.writable, toClient.readable),
  }
}
