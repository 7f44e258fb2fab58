// What the bridge answers besides updates: the `initialize` response (only the capabilities it
// really has), the session mode state, and the JSON-RPC errors it refuses requests with — the
// agent host's refusals mapped to codes a client can act on, each with a message saying what
// was wrong. Pure values: no connection here.
import { PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk'
import type {
  AuthMethod,
  Implementation,
  InitializeResponse,
  McpCapabilities,
  SessionMode,
  SessionModeState,
} from '@agentclientprotocol/sdk'
import { isAgentError } from '@deepseek-ai/dsh-agent'
import { invalidParams } from './from-acp'

/** How a client signs in: the methods offered, and whether `logout` is served. */
export interface AcpInitializeAuth {
  methods: AuthMethod[]
  logout: boolean
}

/**
 * What `initialize` advertises; with a session store, loading, listing, resuming and deleting
 * too; the MCP transports the app connects besides stdio; the sign-in methods, if any.
 */
export function acpInitializeResponse(
  agentInfo: Implementation,
  stores: boolean,
  mcp: McpCapabilities = { http: false, sse: false },
  auth: AcpInitializeAuth = { methods: [], logout: false },
): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: stores,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      mcpCapabilities: { http: mcp.http === true, sse: mcp.sse === true },
      sessionCapabilities: {
        additionalDirectories: {},
        close: {},
        ...(stores && { list: {}, resume: {}, delete: {} }),
      },
      ...(auth.logout && { auth: { logout: {} } }),
    },
    authMethods: auth.methods,
    agentInfo,
  }
}

export function modeState(modes: readonly SessionMode[], current: string): SessionModeState {
  return { currentModeId: current, availableModes: [...modes] }
}

export function sessionNotFound(sessionId: string, message?: string): RequestError {
  const text = message ?? `Session "${sessionId}" not found on this connection`
  return new RequestError(-32002, text, { sessionId })
}

export function unknownMode(modeId: string, modes: readonly SessionMode[]): RequestError {
  const ids = modes.map((mode) => mode.id)
  const valid = ids.length > 0 ? `the modes are: ${ids.join(', ')}` : 'this agent offers no modes'
  return invalidParams(`Unknown mode "${modeId}": ${valid}.`, { modeId, availableModes: ids })
}

export function promptInFlight(sessionId: string): RequestError {
  return RequestError.invalidRequest(
    { sessionId },
    `a prompt is already in flight for session "${sessionId}"; wait for its response or send session/cancel`,
  )
}

/**
 * Maps the agent host's refusals to JSON-RPC errors (`sessionId` for requests about one
 * session); any other failure becomes an internal error that keeps its message.
 */
export function toRequestError(error: unknown, sessionId?: string): RequestError {
  if (error instanceof RequestError) return error
  if (isAgentError(error)) {
    switch (error.code) {
      case 'AGENT_BAD_CWD':
      case 'AGENT_EMPTY_MESSAGE':
      case 'AGENT_IMAGE_INPUT':
        return invalidParams(error.message)
      case 'AGENT_SESSION_NOT_FOUND':
        return sessionNotFound(sessionId ?? '', error.message)
      case 'AGENT_SESSION_LOCKED':
        return RequestError.invalidRequest({ sessionId }, error.message)
      case 'AGENT_BUSY':
        if (sessionId !== undefined) return promptInFlight(sessionId)
        break
      case 'AGENT_DISPOSED':
        if (sessionId !== undefined) return sessionNotFound(sessionId)
        break
      default:
        break
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return RequestError.internalError(undefined, message)
}
