// Keeps every outgoing frame encodable as JSON. The SDK answers an invalid incoming message
// with a -32600 error that echoes the message in `error.data`; a message nested deeper than
// JSON.stringify can recurse (valid JSON of a few tens of KB) then throws inside the stream's
// write, which errors the stream and ends the whole connection. This wrapper drops such an
// error's `data`, so the client still gets its error and the connection keeps serving.
// Only error responses that carry `data` are checked; every other frame passes as it is.
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

/** `stream` with outgoing error responses whose `data` JSON cannot encode sent without it. */
export function withEncodableErrors(stream: Stream): Stream {
  const inner = stream.writable.getWriter()
  const writable = new WritableStream<AnyMessage>({
    write: (message) => inner.write(encodable(message)),
    close: () => inner.close(),
    abort: (reason: unknown) => inner.abort(reason),
  })
  return { readable: stream.readable, writable }
}
