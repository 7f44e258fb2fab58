// The wiring of one ACP connection: the SDK's `agent()` app with handlers for initialize,
// session/new, /load, /resume, /list, /delete, /close, /set_mode, /set_config_option, /prompt
// and /cancel, a session
// record per live session (./connection-sessions), and the clean-up when the client goes away
// (every turn cancelled, every agent released). The server routes the permission layer's
// questions to the records (./server). Not the conversions (./to-acp, ./from-acp, ./presenter),
// the replies and errors (./replies) nor the Cordis face (./index).
import { RequestError, agent as acpAgent, methods } from '@agentclientprotocol/sdk'
import type {
  AgentConnection,
  AnyMessage,
  ClientCapabilities,
  Implementation,
  McpCapabilities,
  McpServer,
  SessionInfo,
  SessionMode,
  SessionUpdate,
  Stream,
} from '@agentclientprotocol/sdk'
import { resolve } from 'node:path'
import type { Agent, SessionListOptions, SessionListPage } from '@deepseek-ai/dsh-agent'
import { ConnectionSessions } from './connection-sessions'
import { acpSessionFiles } from './editor-files'
import { encodableStream } from './encodable-stream'
import { fromAcpPrompt, invalidParams } from './from-acp'
import {
  acpInitializeResponse,
  modeState,
  promptInFlight,
  sessionNotFound,
  toRequestError,
  unknownMode,
} from './replies'
import { AcpSessionRecord } from './session-record'
import { SessionOptions } from './session-options'
import type { AcpModelSource } from './session-options'
import { offersTerminalOutput } from './terminal-cards'

export interface AcpBridgeDeps {
  /** Creates the agent of a new session (checks the directories; throws AGENT_BAD_CWD). */
  createAgent(cwd: string, options: { additionalDirectories?: string[]; mode?: string }): Agent
  /** A stored session as a live agent (throws AGENT_SESSION_NOT_FOUND, _LOCKED, …). */
  restoreAgent(id: string): Agent
  /** The stored sessions, newest first (throws a TypeError for a bad cursor). */
  storedSessions(options: SessionListOptions): SessionListPage
  /** Removes a stored session that is not live (throws AGENT_SESSION_NOT_FOUND, _LOCKED, …). */
  deleteSession(id: string): void
  /** Sessions are stored: load, list and resume are offered. */
  stores: boolean
  agentInfo: Implementation
  /** The modes a session can be in; empty: no modes are offered. */
  modes: readonly SessionMode[]
  /** The mode a new session starts in (one of `modes`; undefined when there are none). */
  defaultMode: string | undefined
  /** A session of this connection started; the returned function is called when it ends. */
  onSession(record: AcpSessionRecord): () => void
  /** The models a session may use: offered as its `model` config option. */
  models: AcpModelSource
  /** A session was opened by a request, with these MCP servers; called just before its response. */
  onOpened(record: AcpSessionRecord, mcpServers: readonly McpServer[]): void
  /** The MCP transports advertised besides stdio. */
  mcpCapabilities: McpCapabilities
}

/** A `session/update` notification as it goes on the wire. */
function updateMessage(sessionId: string, update: SessionUpdate): AnyMessage {
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

/** Serves one ACP client over `stream` until it disconnects or `close()` is called. */
export function serveAcpConnection(deps: AcpBridgeDeps, stream: Stream): AcpServeHandle {
  /** What the client offered in `initialize` (its fs methods, for the sessions' files). */
  let capabilities: ClientCapabilities | undefined
  const sessions = new ConnectionSessions((agent) => recordOf(agent), deps.onSession)
  const options = new SessionOptions(deps.models)

  const send = (sessionId: string, update: SessionUpdate) => {
    // Updates come from turns, which run only once the connection below exists.
    connection.client.notify(methods.client.session.update, { sessionId, update }).catch(() => {
      // The connection closed under a running turn: the update has no reader any more, and
      // the close handler below is already cancelling the turn.
    })
  }
  /** A replay's updates, past the SDK's per-message queue (see ./encodable-stream). */
  const sendBatch = (sessionId: string, updates: readonly SessionUpdate[]) =>
    wire.writeNotifications(updates.map((update) => updateMessage(sessionId, update))).catch(() => {
      // The connection closed during the replay: nobody reads it any more; the load's own
      // response fails with the connection.
    })

  const recordOf = (agent: Agent) => {
    const id = agent.session.header.id
    return new AcpSessionRecord({
      agent,
      send: (update) => send(id, update),
      sendBatch: (updates) => sendBatch(id, updates),
      files: acpSessionFiles(connection, id, capabilities),
      compaction: capabilities?.session?.compaction != null,
      models: options.models,
      terminals: offersTerminalOutput(capabilities?._meta),
      notices: capabilities?.session?.notices != null,
      // Cancelled with the turn: `$/cancel_request` goes out, and the turn stops waiting.
      requestPermission: (request, signal) =>
        connection.client.request(methods.client.session.requestPermission, request, {
          cancellationSignal: signal,
          stopWaitingOnCancel: true,
        }),
    })
  }

  /** The mode state a session reports, when modes are offered. */
  const modesOf = (agent: Agent) => {
    const current = agent.session.header.mode ?? deps.defaultMode
    return current === undefined ? {} : { modes: modeState(deps.modes, current) }
  }

  /** A stored session live again on this connection; with `replay`, its history re-sent first. */
  const attach = async (
    params: { sessionId: string; cwd: string; mcpServers?: McpServer[] | null },
    replay: boolean,
  ) => {
    const { sessionId } = params
    await options.refresh()
    if (sessions.get(sessionId)) {
      const message = `Session "${sessionId}" is already live on this connection: keep using it, or close it (session/close) first.`
      throw RequestError.invalidRequest({ sessionId }, message)
    }
    let agent: Agent
    try {
      agent = deps.restoreAgent(sessionId)
    } catch (error) {
      throw toRequestError(error, sessionId)
    }
    const stored = agent.session.header.cwd
    if (resolve(params.cwd) !== stored) {
      void agent.dispose()
      const message = `Session "${sessionId}" works in ${stored}, not in ${params.cwd}: load it with cwd "${stored}".`
      throw invalidParams(message, { sessionId, cwd: params.cwd, storedCwd: stored })
    }
    if (agent.session.header.mode === undefined && deps.defaultMode !== undefined) {
      agent.setMode(deps.defaultMode)
    }
    const record = sessions.open(agent)
    if (replay) await record.replay()
    record.commands.announce()
    deps.onOpened(record, params.mcpServers ?? [])
    return { ...modesOf(agent), configOptions: options.of(record) }
  }

  const app = acpAgent({ name: deps.agentInfo.name })
    .onRequest(methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities
      return acpInitializeResponse(deps.agentInfo, deps.stores, deps.mcpCapabilities)
    })
    .onRequest(methods.agent.session.new, async ({ params }) => {
      await options.refresh()
      const defaultMode = deps.defaultMode
      let agent: Agent
      try {
        agent = deps.createAgent(params.cwd, {
          additionalDirectories: params.additionalDirectories,
          ...(defaultMode !== undefined && { mode: defaultMode }),
        })
      } catch (error) {
        throw toRequestError(error)
      }
      const record = sessions.open(agent)
      record.commands.announce()
      deps.onOpened(record, params.mcpServers)
      return { sessionId: record.id, ...modesOf(agent), configOptions: options.of(record) }
    })
    .onRequest(methods.agent.session.load, ({ params }) => attach(params, true))
    .onRequest(methods.agent.session.resume, ({ params }) => attach(params, false))
    .onRequest(methods.agent.session.list, ({ params }) => {
      let page: SessionListPage
      try {
        page = deps.storedSessions({
          ...(params.cwd != null && { cwd: params.cwd }),
          ...(params.cursor != null && { cursor: params.cursor }),
        })
      } catch (error) {
        throw error instanceof TypeError ? invalidParams(error.message) : toRequestError(error)
      }
      const infos: SessionInfo[] = page.sessions.map(({ id, cwd, title, updatedAt }) => ({
        sessionId: id,
        cwd,
        ...(title !== undefined && { title }),
        updatedAt,
      }))
      return {
        sessions: infos,
        ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
      }
    })
    .onRequest(methods.agent.session.delete, async ({ params }) => {
      // A session live on this connection is closed first (its turn cancelled, its store released).
      await sessions.close(params.sessionId)
      try {
        deps.deleteSession(params.sessionId)
      } catch (error) {
        throw toRequestError(error, params.sessionId)
      }
      return {}
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      if (!(await sessions.close(params.sessionId))) throw sessionNotFound(params.sessionId)
      return {}
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      const record = sessions.get(params.sessionId)
      if (!record) throw sessionNotFound(params.sessionId)
      if (!deps.modes.some((mode) => mode.id === params.modeId)) {
        throw unknownMode(params.modeId, deps.modes)
      }
      // The agent logs the change; the record shows it as current_mode_update.
      record.agent.setMode(params.modeId)
      return {}
    })
    .onRequest(methods.agent.session.setConfigOption, ({ params }) => {
      const record = sessions.get(params.sessionId)
      if (!record) throw sessionNotFound(params.sessionId)
      return options.set(record, params)
    })
    .onRequest(methods.agent.session.prompt, async ({ params, signal }) => {
      const record = sessions.get(params.sessionId)
      if (!record) throw sessionNotFound(params.sessionId)
      if (record.busy) throw promptInFlight(params.sessionId)
      const text = fromAcpPrompt(params.prompt, record.cwd)
      try {
        return { stopReason: await record.prompt(text, signal) }
      } catch (error) {
        throw toRequestError(error, params.sessionId)
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      // A notification has no response: a cancel for an unknown session is dropped.
      sessions.get(params.sessionId)?.cancel()
    })

  const wire = encodableStream(stream)
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
