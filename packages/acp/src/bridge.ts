// The wiring of one ACP connection: the SDK's `agent()` app with handlers for initialize,
// session/new, session/set_mode, session/prompt and session/cancel, a session record per
// session, and the clean-up when the client goes away (every turn cancelled, every agent
// released). The server routes the permission layer's questions to the records (./server).
// Not the conversions (./to-acp, ./from-acp, ./presenter) nor the Cordis face (./index).
import {
  PROTOCOL_VERSION,
  RequestError,
  agent as acpAgent,
  methods,
} from '@agentclientprotocol/sdk'
import type {
  AgentConnection,
  ClientCapabilities,
  Implementation,
  InitializeResponse,
  SessionMode,
  SessionModeState,
  SessionUpdate,
  Stream,
} from '@agentclientprotocol/sdk'
import { isAgentError } from '@deepseek-ai/dsh-agent'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { acpSessionFiles } from './editor-files'
import { withEncodableErrors } from './encodable-stream'
import { fromAcpPrompt, invalidParams } from './from-acp'
import { AcpSessionRecord } from './session-record'

export interface AcpBridgeDeps {
  /** Creates the agent of a new session (checks the directories; throws AGENT_BAD_CWD). */
  createAgent(cwd: string, options: { additionalDirectories?: string[]; mode?: string }): Agent
  agentInfo: Implementation
  /** The modes a session can be in; empty: no modes are offered. */
  modes: readonly SessionMode[]
  /** The mode a new session starts in (one of `modes`; undefined when there are none). */
  defaultMode: string | undefined
  /** A session of this connection started; the returned function is called when it ends. */
  onSession(record: AcpSessionRecord): () => void
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

/** What `initialize` advertises: only what the bridge really does. */
export function acpInitializeResponse(agentInfo: Implementation): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: false,
      promptCapabilities: { image: false, audio: false, embeddedContext: false },
      mcpCapabilities: { http: false, sse: false },
      sessionCapabilities: { additionalDirectories: {} },
    },
    authMethods: [],
    agentInfo,
  }
}

function sessionNotFound(sessionId: string): RequestError {
  return new RequestError(-32002, `Session "${sessionId}" not found on this connection`, {
    sessionId,
  })
}

function modeState(modes: readonly SessionMode[], current: string): SessionModeState {
  return { currentModeId: current, availableModes: [...modes] }
}

function unknownMode(modeId: string, modes: readonly SessionMode[]): RequestError {
  const ids = modes.map((mode) => mode.id)
  const valid = ids.length > 0 ? `the modes are: ${ids.join(', ')}` : 'this agent offers no modes'
  return invalidParams(`Unknown mode "${modeId}": ${valid}.`, { modeId, availableModes: ids })
}

function promptInFlight(sessionId: string): RequestError {
  return RequestError.invalidRequest(
    { sessionId },
    `a prompt is already in flight for session "${sessionId}"; wait for its response or send session/cancel`,
  )
}

/**
 * Maps the agent host's refusals to JSON-RPC errors (`sessionId` undefined for session/new);
 * any other failure becomes an internal error that keeps its message.
 */
function toRequestError(error: unknown, sessionId?: string): RequestError {
  if (error instanceof RequestError) return error
  if (isAgentError(error)) {
    if (error.code === 'AGENT_BAD_CWD' || error.code === 'AGENT_EMPTY_MESSAGE') {
      return invalidParams(error.message)
    }
    if (sessionId !== undefined && error.code === 'AGENT_BUSY') return promptInFlight(sessionId)
    if (sessionId !== undefined && error.code === 'AGENT_DISPOSED')
      return sessionNotFound(sessionId)
  }
  const message = error instanceof Error ? error.message : String(error)
  return RequestError.internalError(undefined, message)
}

/** Serves one ACP client over `stream` until it disconnects or `close()` is called. */
export function serveAcpConnection(deps: AcpBridgeDeps, stream: Stream): AcpServeHandle {
  const sessions = new Map<string, AcpSessionRecord>()
  const leave = new Map<string, () => void>()
  /** What the client offered in `initialize` (its fs methods, for the sessions' files). */
  let capabilities: ClientCapabilities | undefined

  const send = (sessionId: string, update: SessionUpdate) => {
    // Updates come from turns, which run only once the connection below exists.
    connection.client.notify(methods.client.session.update, { sessionId, update }).catch(() => {
      // The connection closed under a running turn: the update has no reader any more, and
      // the close handler below is already cancelling the turn.
    })
  }

  const app = acpAgent({ name: deps.agentInfo.name })
    .onRequest(methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities
      return acpInitializeResponse(deps.agentInfo)
    })
    .onRequest(methods.agent.session.new, ({ params }) => {
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
      const id = agent.session.header.id
      const record = new AcpSessionRecord({
        agent,
        send: (update) => send(id, update),
        // Cancelled with the turn: `$/cancel_request` goes out, and the turn stops waiting.
        files: acpSessionFiles(connection, id, capabilities),
        requestPermission: (request, signal) =>
          connection.client.request(methods.client.session.requestPermission, request, {
            cancellationSignal: signal,
            stopWaitingOnCancel: true,
          }),
      })
      sessions.set(id, record)
      leave.set(id, deps.onSession(record))
      const modes = defaultMode === undefined ? {} : { modes: modeState(deps.modes, defaultMode) }
      return { sessionId: id, ...modes }
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
    .onRequest(methods.agent.session.prompt, async ({ params, signal }) => {
      const record = sessions.get(params.sessionId)
      if (!record) throw sessionNotFound(params.sessionId)
      if (record.busy) throw promptInFlight(params.sessionId)
      const text = fromAcpPrompt(params.prompt)
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

  const connection: AgentConnection = app.connect(withEncodableErrors(stream))
  const releaseAll = async () => {
    const records = [...sessions.values()]
    sessions.clear()
    await Promise.all(records.map((record) => record.dispose()))
    for (const forget of leave.values()) forget()
    leave.clear()
  }
  const closed = connection.closed.then(releaseAll, releaseAll)
  return {
    closed,
    close: () => {
      connection.close()
      return closed
    },
    sessionIds: () => [...sessions.keys()],
  }
}
