// The wiring of one ACP connection: the SDK's `agent()` app with initialize and the named
// handlers of ./session-lifecycle (session/new, /load, /resume, /list, /delete, /close) and
// ./session-requests (/set_mode, /set_config_option, /prompt, /cancel), a session record per
// live session (./connection-sessions), and the clean-up when the client goes away (every turn
// cancelled, every agent released). Not the conversions (./to-acp, ./from-acp, ./presenter),
// the replies and errors (./replies) nor the Cordis face (./index).
import { agent as acpAgent, methods } from '@agentclientprotocol/sdk'
import type {
  AgentConnection,
  AnyMessage,
  AuthMethod,
  ClientCapabilities,
  Stream,
} from '@agentclientprotocol/sdk'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { ConnectionSessions } from './connection-sessions'
import type { AcpBridgeDeps } from './bridge-deps'
import { authClientOf, authenticate, logout } from './auth'
import type { AcpAuth } from './auth'
import type { AcpConnectionState } from './connection-state'
import { acpSessionFiles } from './editor-files'
import { acpElicitOf } from './elicit'
import { encodableStream } from './encodable-stream'
import { acpInitializeResponse } from './replies'
import { withImagePrompts } from './prompt-images'
import {
  attachSession,
  closeSession,
  deleteSession,
  listSessions,
  newSession,
} from './session-lifecycle'
import { AcpSessionRecord } from './session-record'
import type { AcpSessionChannels } from './session-channels'
import {
  cancelSession,
  promptSession,
  setSessionConfigOption,
  setSessionMode,
} from './session-requests'
import type { AcpNotice } from './session-opening'
import { SessionOptions } from './session-options'
import { offersTerminalOutput } from './terminal-cards'
import type { AcpRoutedUpdate } from './child-sessions'
import { tapInitialize } from './initialize-tap'
import type { AcpUnstableCapabilities } from './initialize-tap'
import { offersSubagents } from './subagent-updates'
import type { AcpWireUpdate } from './subagent-updates'

/** A `session/update` notification as it goes on the wire. */
function updateMessage(sessionId: string, update: AcpWireUpdate): AnyMessage {
  return { jsonrpc: '2.0', method: methods.client.session.update, params: { sessionId, update } }
}

/** One served connection. */
export interface AcpServeHandle {
  /** Resolves once the connection closed and its sessions' turns ended and agents were released. */
  readonly closed: Promise<void>
  /** Closes the connection (as a client disconnect would); resolves like `closed`. */
  close(): Promise<void>
  /** The ids of the live sessions of this connection. */
  sessionIds(): string[]
}

/** How one connection is served. */
export interface AcpServeOptions {
  /**
   * How the client signs in (./auth): the methods `initialize` lists and the gate before a
   * session opens; none: no methods, every session opens.
   */
  auth?: AcpAuth
}

/** Serves one ACP client over `stream` until it disconnects or `close()` is called. */
export function serveAcpConnection(
  deps: AcpBridgeDeps,
  stream: Stream,
  serveOptions: AcpServeOptions = {},
): AcpServeHandle {
  /** What the client offered in `initialize` (its fs methods, for the sessions' files). */
  let capabilities: ClientCapabilities | undefined
  /** The same, as the client sent them (./initialize-tap): the unstable ones too. */
  let unstableCapabilities: AcpUnstableCapabilities | undefined
  /** The sign-in methods `initialize` listed to this client. */
  let offered: AuthMethod[] = []
  const { auth } = serveOptions
  const options = new SessionOptions(deps.models, deps.modes, deps.defaultMode)

  const send = (sessionId: string, update: AcpWireUpdate) => {
    // Updates come from turns, which run only once the connection below exists. An unstable
    // update goes only to a client that advertised it; the SDK sends what it is given.
    const params: { sessionId: string; update: AcpWireUpdate } = { sessionId, update }
    return connection.client.notify(methods.client.session.update as string, params).catch(() => {
      // The connection closed under a running turn: the update has no reader any more, and
      // the close handler below is already cancelling the turn.
    })
  }
  /** A replay's updates, past the SDK's per-message queue (see ./encodable-stream). */
  const sendBatch = (updates: readonly AcpRoutedUpdate[]) =>
    wire.writeNotifications(updates.map((u) => updateMessage(u.sessionId, u.update))).catch(() => {
      // The connection closed during the replay: nobody reads it any more; the load's own
      // response fails with the connection.
    })

  const recordOf = (agent: Agent, channels: AcpSessionChannels) => {
    const id = agent.session.header.id
    // The files' word (a notice, a card waiting on the editor) goes through the record.
    const filesSession = {
      notify: (notice: AcpNotice) => record.notify(notice),
      waiting: (callId: string, text: string) => record.waiting(callId, text),
    }
    const record: AcpSessionRecord = new AcpSessionRecord({
      agent,
      channels,
      send: (update) => send(id, update),
      sendOn: send,
      sendBatch,
      subagents: offersSubagents(unstableCapabilities),
      storedChildren: (parent) => deps.storedChildren(parent),
      files: acpSessionFiles(connection, id, capabilities, filesSession),
      filesOn: (wireId) => acpSessionFiles(connection, wireId, capabilities, filesSession),
      compaction: capabilities?.session?.compaction != null,
      models: options.models,
      configOptions: (record) => options.of(record),
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
  const sessions = new ConnectionSessions(recordOf)
  const state: AcpConnectionState = { deps, sessions, options, send, ...(auth && { auth }) }

  const app = acpAgent({ name: deps.agentInfo.name })
    .onRequest(methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities
      offered = auth?.methods(authClientOf(capabilities)) ?? []
      const response = acpInitializeResponse(deps.agentInfo, deps.stores, deps.mcpCapabilities, {
        methods: offered,
        logout: auth?.logout !== undefined,
      })
      return withImagePrompts(response, deps.takesImages())
    })
    .onRequest(methods.agent.authenticate, ({ params }) =>
      authenticate(auth, offered, params.methodId),
    )
    .onRequest(methods.agent.logout, () => logout(auth))
    .onRequest(methods.agent.session.new, ({ params }) => newSession(state, params))
    .onRequest(methods.agent.session.load, ({ params }) => attachSession(state, params, true))
    .onRequest(methods.agent.session.resume, ({ params }) => attachSession(state, params, false))
    .onRequest(methods.agent.session.list, ({ params }) => listSessions(state, params))
    .onRequest(methods.agent.session.delete, ({ params }) => deleteSession(state, params))
    .onRequest(methods.agent.session.close, ({ params }) => closeSession(state, params))
    .onRequest(methods.agent.session.setMode, ({ params }) => setSessionMode(state, params))
    .onRequest(methods.agent.session.setConfigOption, ({ params }) =>
      setSessionConfigOption(state, params),
    )
    .onRequest(methods.agent.session.prompt, ({ params, signal }) =>
      promptSession(state, params, signal),
    )
    .onNotification(methods.agent.session.cancel, ({ params }) => cancelSession(state, params))

  const wire = encodableStream(
    tapInitialize(stream, (seen) => {
      unstableCapabilities = seen
    }),
  )
  const connection: AgentConnection = app.connect(wire.stream)
  const releaseAll = () => sessions.closeAll()
  const closed = connection.closed.then(releaseAll, releaseAll)
  return {
    closed,
    close: () => {
      connection.close()
      return closed
    },
    sessionIds: () => sessions.ids(),
  }
}
