// Keeps every outgoing frame encodable as JSON. The SDK answers an invalid incoming message
// with a -32600 error that echoes the message in `error.data`; a message nested deeper than
// JSON.stringify can recurse (valid JSON of a few tens of KB) then throws inside the stream's
// write, which errors the stream and ends the whole connection. This wrapper drops such an
// error's `data`, so the client still gets its error and the connection keeps serving.
// Only error responses that carry `data` are checked; every other frame passes as it is.
// It also lets the bridge write many notifications at once past the SDK's per-message queue
// (a session/load replays thousands), in order after what the SDK already handed over.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk'

function encodable(message: AnyMessage): AnyMessage {
  if (!('error' in message) || message.error.data === undefined) return message
  try {
    JSON.stringify(message.error.data)
    return message
  } catch {
    // The echo cannot be encoded; the code and message still tell the client what was wrong.
    const { data: _dropped, ...error } = message.error
    return { ...message, error }
  }
}

export interface EncodableStream {
  /** The stream for the SDK's connection. */
  stream: Stream
  /**
   * Writes notifications straight to the transport, in order, after every message the SDK has
   * handed over so far (not after messages still in the SDK's own queue); resolves once the
   * transport took the last. For a burst of notifications nothing else waits to go before.
   */
  writeNotifications(messages: readonly AnyMessage[]): Promise<void>
}

/** `stream` with outgoing error responses whose `data` JSON cannot encode sent without it. */
export function encodableStream(stream: Stream): EncodableStream {
  const inner = stream.writable.getWriter()
  const writable = new WritableStream<AnyMessage>({
    write: (message) => inner.write(encodable(message)),
    close: () => inner.close(),
    abort: (reason: unknown) => inner.abort(reason),
  })
  return {
    stream: { readable: stream.readable, writable },
    writeNotifications: (messages) => {
      let last: Promise<void> = Promise.resolve()
      for (const message of messages) last = inner.write(message)
      return last
    },
  }
}
