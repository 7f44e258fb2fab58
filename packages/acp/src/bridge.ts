// The wiring of one ACP connection: the SDK's `agent()` app with initialize and the named
// handlers of ./sessions/session-lifecycle (session/new, /load, /resume, /list, /delete, /close) and
// ./sessions/session-requests (/set_mode, /set_config_option, /prompt, /cancel), a session record per
// live session (./sessions/connection-sessions, each made by ./sessions/connection-records), and the clean-up
// when the client goes away (every turn cancelled, every agent released). Not the conversions
// (./wire/to-acp, ./wire/from-acp, ./cards/presenter), the replies and errors (./wire/replies) nor the Cordis face
// (./index).
import { agent as acpAgent, methods } from '@agentclientprotocol/sdk'
import type { AgentConnection, AnyMessage, Stream } from '@agentclientprotocol/sdk'
import { ConnectionSessions } from './sessions/connection-sessions'
import type { AcpBridgeDeps } from './bridge-deps'
import { authClientOf, authenticate, logout } from './wire/auth'
import type { AcpAuth } from './wire/auth'
import type { AcpConnectionState } from './sessions/connection-state'
import { recordFactory } from './sessions/connection-records'
import type { AcpClientView } from './sessions/connection-records'
import { encodableStream } from './wire/encodable-stream'
import { acpInitializeResponse } from './wire/replies'
import { withImagePrompts } from './wire/prompt-images'
import {
  attachSession,
  closeSession,
  deleteSession,
  listSessions,
  newSession,
} from './sessions/session-lifecycle'
import {
  cancelSession,
  promptSession,
  setSessionConfigOption,
  setSessionMode,
} from './sessions/session-requests'
import { SessionOptions } from './sessions/session-options'
import type { AcpRoutedUpdate } from './sessions/child-sessions'
import { tapInitialize } from './wire/initialize-tap'
import type { AcpWireUpdate } from './cards/subagent-updates'

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
   * How the client signs in (./wire/auth): the methods `initialize` lists and the gate before a
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
  const client: AcpClientView = { offered: [] }
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
  /** A replay's updates, past the SDK's per-message queue (see ./wire/encodable-stream). */
  const sendBatch = (updates: readonly AcpRoutedUpdate[]) =>
    wire.writeNotifications(updates.map((u) => updateMessage(u.sessionId, u.update))).catch(() => {
      // The connection closed during the replay: nobody reads it any more; the load's own
      // response fails with the connection.
    })
  const records = { connection: () => connection, send, sendBatch }
  const sessions = new ConnectionSessions(recordFactory(deps, client, records, options))
  const state: AcpConnectionState = { deps, sessions, options, send, ...(auth && { auth }) }
  const app = connectionApp(state, client, auth)
  const wire = encodableStream(
    tapInitialize(stream, (seen) => {
      client.unstable = seen
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

/** The SDK's agent app with the connection's handlers. */
function connectionApp(state: AcpConnectionState, client: AcpClientView, auth?: AcpAuth) {
  const { deps } = state
  return acpAgent({ name: deps.agentInfo.name })
    .onRequest(methods.agent.initialize, ({ params }) => {
      client.capabilities = params.clientCapabilities
      client.offered = auth?.methods(authClientOf(client.capabilities)) ?? []
      const response = acpInitializeResponse(deps.agentInfo, deps.stores, deps.mcpCapabilities, {
        methods: client.offered,
        logout: auth?.logout !== undefined,
      })
      return withImagePrompts(response, deps.takesImages())
    })
    .onRequest(methods.agent.authenticate, ({ params }) =>
      authenticate(auth, client.offered, params.methodId),
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
}
