// The handlers for a live session's requests: session/set_mode, /set_config_option, /prompt
// and the session/cancel notification. Each finds the session's record on this connection (an
// unknown one is refused, a cancel for one is dropped) and hands the request to it. Not the
// wiring (../bridge).
import type {
  CancelNotification,
  PromptRequest,
  PromptResponse,
  SetSessionConfigOptionRequest,
  SetSessionModeRequest,
} from '@agentclientprotocol/sdk'
import type { AcpConnectionState } from './connection-state'
import { fromAcpPromptWithImages } from '../wire/prompt-images'
import { promptInFlight, sessionNotFound, toRequestError, unknownMode } from '../wire/replies'
import type { AcpSessionRecord } from './session-record'

function recordOf(state: AcpConnectionState, sessionId: string): AcpSessionRecord {
  const record = state.sessions.get(sessionId)
  if (!record) throw sessionNotFound(sessionId)
  return record
}

export function setSessionMode(state: AcpConnectionState, params: SetSessionModeRequest) {
  const record = recordOf(state, params.sessionId)
  if (!state.deps.modes.some((mode) => mode.id === params.modeId)) {
    throw unknownMode(params.modeId, state.deps.modes)
  }
  // The agent logs the change; the record shows it as current_mode_update.
  record.agent.setMode(params.modeId)
  return {}
}

export function setSessionConfigOption(
  state: AcpConnectionState,
  params: SetSessionConfigOptionRequest,
) {
  return state.options.set(recordOf(state, params.sessionId), params)
}

export async function promptSession(
  state: AcpConnectionState,
  params: PromptRequest,
  signal: AbortSignal,
): Promise<PromptResponse> {
  const record = recordOf(state, params.sessionId)
  if (record.busy) throw promptInFlight(params.sessionId)
  const { text, images } = fromAcpPromptWithImages(params.prompt, record.cwd)
  try {
    return { stopReason: await record.prompt(text, signal, images) }
  } catch (error) {
    throw toRequestError(error, params.sessionId)
  }
}

/** A notification has no response: a cancel for an unknown session is dropped. */
export function cancelSession(state: AcpConnectionState, params: CancelNotification): void {
  state.sessions.get(params.sessionId)?.cancel()
}
