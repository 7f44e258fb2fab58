// A session's files as its editor holds them: `fs/read_text_file` and `fs/write_text_file` on
// the session's own connection, offered only as far as the client advertised them in
// `initialize` (`clientCapabilities.fs`). A provider that reads the person's unsaved buffers
// and writes through the editor (fs-acp) finds it on the call's session, as its `files` channel
// (given with the session's channels, ./session-channels).
// Not a provider itself: no versions, no fallback to disk, no timeout (the caller's signal).
// It carries the provider's word back to the person: a notice, and a card that waits on the
// editor (the call's card says so).
import { methods } from '@agentclientprotocol/sdk'
import type { AcpNotice } from './session-opening'
import type {
  AgentConnection,
  ClientCapabilities,
  SendRequestOptions,
} from '@agentclientprotocol/sdk'

export interface AcpSessionFiles {
  /** The client advertised `fs.readTextFile`. */
  readonly canRead: boolean
  /** The client advertised `fs.writeTextFile`. */
  readonly canWrite: boolean
  /**
   * The buffer's whole text, unsaved changes included, or with `range` the lines from its
   * 1-based `line`, at most `limit` (sent as `line`/`limit`); rejects with the client's error.
   */
  readTextFile(
    path: string,
    signal: AbortSignal,
    range?: { line: number; limit: number },
  ): Promise<string>
  /** Replaces the file's text through the editor. */
  writeTextFile(path: string, content: string, signal: AbortSignal): Promise<void>
  /** Shows the person a notice about the session's files (an editor that stopped answering). */
  notify(notice: AcpNotice): void
  /** Tool call `call` (a ToolExecution) waits on the editor: its card says so with `text`. */
  waiting(call: object, text: string): void
}

/** What the session's files tell the person through its record. */
export interface AcpFilesSession {
  notify(notice: AcpNotice): void
  /** The card of model call `callId` says it waits on `text`. */
  waiting(callId: string, text: string): void
}

/** The files of session `sessionId` through `connection`, as `capabilities` allow. */
export function acpSessionFiles(
  connection: AgentConnection,
  sessionId: string,
  capabilities: ClientCapabilities | undefined,
  session: AcpFilesSession,
): AcpSessionFiles {
  // Cancelled with the caller: `$/cancel_request` goes out, and the caller stops waiting.
  const options = (signal: AbortSignal): SendRequestOptions => ({
    cancellationSignal: signal,
    stopWaitingOnCancel: true,
  })
  return {
    canRead: capabilities?.fs?.readTextFile === true,
    canWrite: capabilities?.fs?.writeTextFile === true,
    async readTextFile(path, signal, range) {
      const params = { sessionId, path, ...(range && { line: range.line, limit: range.limit }) }
      const response: unknown = await connection.client.request(
        methods.client.fs.readTextFile,
        params,
        options(signal),
      )
      // The SDK types this response loosely: check it before it is taken for the file's text.
      const content = (response as { content?: unknown } | null)?.content
      if (typeof content !== 'string') {
        throw new Error(`the client answered fs/read_text_file for ${path} without a text content`)
      }
      return content
    },
    async writeTextFile(path, content, signal) {
      const params = { sessionId, path, content }
      await connection.client.request(methods.client.fs.writeTextFile, params, options(signal))
    },
    notify: (notice) => session.notify(notice),
    waiting(call, text) {
      const callId = (call as { callId?: unknown }).callId
      if (typeof callId === 'string') session.waiting(callId, text)
    },
  }
}
