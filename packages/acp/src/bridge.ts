// The wiring of one ACP connection: the SDK's `agent()` app with handlers for initialize,
// session/new, session/prompt and session/cancel, a session record per session, and the
// clean-up when the client goes away (every turn cancelled, every agent released).
// Not the conversions (./to-acp, ./from-acp, ./presenter) nor the Cordis face (./index).
import {
  PROTOCOL_VERSION,
  RequestError,
  agent as acpAgent,
  methods,
} from '@agentclientprotocol/sdk'
import type {
  AgentConnection,
  Implementation,
  InitializeResponse,
  SessionUpdate,
  Stream,
} from '@agentclientprotocol/sdk'
import { isAgentError } from '@deepseek-ai/dsh-agent'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { withEncodableErrors } from './encodable-stream'
import { fromAcpPrompt, invalidParams } from './from-acp'
import type { AcpToolPresenter } from './presenter'
import { AcpSessionRecord } from './session-record'

export interface AcpBridgeDeps {
  /** Creates the agent of a new session (checks the cwd; throws AGENT_BAD_CWD). */
  createAgent(cwd: string): Agent
  tools: AcpToolPresenter
  agentInfo: Implementation
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
      sessionCapabilities: {},
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

  const send = (sessionId: string, update: SessionUpdate) => {
    // Updates come from turns, which run only once the connection below exists.
    connection.client.notify(methods.client.session.update, { sessionId, update }).catch(() => {
      // The connection closed under a running turn: the update has no reader any more, and
      // the close handler below is already cancelling the turn.
    })
  }

  const app = acpAgent({ name: deps.agentInfo.name })
    .onRequest(methods.agent.initialize, () => acpInitializeResponse(deps.agentInfo))
    .onRequest(methods.agent.session.new, ({ params }) => {
      let agent: Agent
      try {
        agent = deps.createAgent(params.cwd)
      } catch (error) {
        throw toRequestError(error)
      }
      const id = agent.session.header.id
      const record = new AcpSessionRecord({
        agent,
        tools: deps.tools,
        send: (update) => send(id, update),
      })
      sessions.set(id, record)
      return { sessionId: id }
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
