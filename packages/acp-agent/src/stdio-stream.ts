// The bin's ACP stream over stdio. Incoming lines go through the SDK's ndjson reader (which
// answers a line that is not JSON itself). Outgoing messages are written straight to stdout as
// JSON lines: the SDK's own writer passes each message through two more web streams (an
// encoder, Node's adapter of stdout), each write waiting for the one before.
import * as acp from '@agentclientprotocol/sdk'

/** What the stream needs of stdout (a Node writable). */
export interface LineSink {
  write(data: string | Uint8Array): boolean
  once(event: 'drain', listener: () => void): unknown
}

/** The stream of one ACP connection: `input`'s lines in, messages out to `sink` as lines. */
export function stdioStream(
  input: ReadableStream<Uint8Array>,
  sink: LineSink,
  options: { maxMessageBytes: number },
): acp.Stream {
  // Resolves at once while the sink takes more; else once it has drained.
  const write = async (data: string | Uint8Array): Promise<void> => {
    if (!sink.write(data)) await new Promise<void>((resolve) => sink.once('drain', resolve))
  }
  // The reader's own answers (a parse error) go out through the same sink, in order.
  const answers = new WritableStream<Uint8Array>({ write })
  const { readable } = acp.ndJsonStream(answers, input, options)
  const writable = new WritableStream<acp.AnyMessage>({
    write: (message) => write(`${JSON.stringify(message)}\n`),
  })
  return { readable, writable }
}
