// How one connection makes the record of each of its sessions: what the client offered in
// `initialize` (its fs methods, terminals, notices, subagents, forms) decides what the record
// shows, and the connection carries its updates, questions and file requests. Not the handlers
// (./session-lifecycle, ./session-requests) nor the wiring (../bridge).
import { methods } from '@agentclientprotocol/sdk'
import type { AgentConnection, AuthMethod, ClientCapabilities } from '@agentclientprotocol/sdk'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { AcpBridgeDeps } from '../bridge-deps'
import type { AcpRoutedUpdate } from './child-sessions'
import { acpSessionFiles } from './editor-files'
import { acpElicitOf } from './elicit'
import type { AcpUnstableCapabilities } from '../wire/initialize-tap'
import type { AcpSessionChannels } from './session-channels'
import type { AcpNotice } from './session-opening'
import type { SessionOptions } from './session-options'
import { AcpSessionRecord } from './session-record'
import { offersSubagents } from '../cards/subagent-updates'
import type { AcpWireUpdate } from '../cards/subagent-updates'
import { offersTerminalOutput } from '../cards/terminal-cards'

/** What the connection learned of its client in `initialize`. */
export interface AcpClientView {
  /** What the client offered, as the SDK parsed it. */
  capabilities?: ClientCapabilities
  /** The same, as the client sent them (../wire/initialize-tap): the unstable ones too. */
  unstable?: AcpUnstableCapabilities
  /** The sign-in methods `initialize` listed to this client. */
  offered: AuthMethod[]
}

/** What a record needs of its connection. */
export interface AcpRecordWire {
  /** The connection, once it exists (every record is made after it). */
  connection(): AgentConnection
  send(sessionId: string, update: AcpWireUpdate): Promise<void>
  sendBatch(updates: readonly AcpRoutedUpdate[]): Promise<void>
}

/** Makes the record of a live session of the connection, answering its agent's channels. */
export function recordFactory(
  deps: AcpBridgeDeps,
  client: AcpClientView,
  wire: AcpRecordWire,
  options: SessionOptions,
): (agent: Agent, channels: AcpSessionChannels) => AcpSessionRecord {
  return (agent, channels) => {
    const id = agent.session.header.id
    const connection = wire.connection()
    const { capabilities } = client
    // The files' word (a notice, a card waiting on the editor) goes through the record.
    const filesSession = {
      notify: (notice: AcpNotice) => record.notify(notice),
      waiting: (callId: string, text: string) => record.waiting(callId, text),
    }
    const record: AcpSessionRecord = new AcpSessionRecord({
      agent,
      channels,
      send: (update) => wire.send(id, update),
      sendOn: wire.send,
      sendBatch: wire.sendBatch,
      subagents: offersSubagents(client.unstable),
      storedChildren: (parent) => deps.storedChildren(parent),
      files: acpSessionFiles(connection, id, capabilities, filesSession),
      filesOn: (wireId) => acpSessionFiles(connection, wireId, capabilities, filesSession),
      compaction: capabilities?.session?.compaction != null,
      models: options.models,
      configOptions: () => options.of(record),
      elicit: acpElicitOf(connection, id, capabilities, (callId) => record.wireIdOf(callId)),
      modes: deps.modes.map((mode) => mode.id),
      terminals: offersTerminalOutput(capabilities?._meta),
      notices: capabilities?.session?.notices != null,
      // Cancelled with the turn: `$/cancel_request` goes out, and the turn stops waiting.
      requestPermission: (request, signal) =>
        connection.client.request(methods.client.session.requestPermission, request, {
          cancellationSignal: signal,
          stopWaitingOnCancel: true,
        }),
    })
    return record
  }
}
