// The handlers that open and end a connection's sessions: session/new, /load and /resume (a
// stored session live again, with or without its history re-sent), /list, /delete and /close.
// Each takes the connection's state and the request's params and returns the response (or
// throws the RequestError the client reads). Not the wiring (../bridge).
import { RequestError } from '@agentclientprotocol/sdk'
import type {
  CloseSessionRequest,
  DeleteSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  McpServer,
  NewSessionRequest,
  SessionInfo,
  SessionModeState,
} from '@agentclientprotocol/sdk'
import { resolve } from 'node:path'
import type { Agent, SessionListPage } from '@deepseek-ai/dsh-agent'
import { assertSignedIn } from '../wire/auth'
import { AcpSessionChannels } from './session-channels'
import type { AcpConnectionState } from './connection-state'
import { invalidParams } from '../wire/from-acp'
import { modeState, sessionNotFound, toRequestError } from '../wire/replies'

/** What a stored session is attached with (session/load, session/resume). */
export interface AcpAttachParams {
  sessionId: string
  cwd: string
  mcpServers?: McpServer[] | null
}

/** The mode state a session reports, when modes are offered. */
function modesOf(state: AcpConnectionState, agent: Agent): { modes?: SessionModeState } {
  const current = agent.session.header.mode ?? state.deps.defaultMode
  return current === undefined ? {} : { modes: modeState(state.deps.modes, current) }
}

export async function newSession(state: AcpConnectionState, params: NewSessionRequest) {
  const { deps, sessions, options } = state
  assertSignedIn(state.auth)
  await options.refresh()
  const defaultMode = deps.defaultMode
  const channels = new AcpSessionChannels()
  let agent: Agent
  try {
    agent = deps.createAgent(params.cwd, {
      additionalDirectories: params.additionalDirectories,
      ...(defaultMode !== undefined && { mode: defaultMode }),
      channels,
    })
  } catch (error) {
    throw toRequestError(error)
  }
  const record = sessions.open(agent, channels)
  options.announce(record, options.moveRetired(record))
  deps.onOpened(record, params.mcpServers)
  return { sessionId: record.id, ...modesOf(state, agent), configOptions: options.of(record) }
}

/** A stored session live again on this connection; with `replay`, its history re-sent first. */
export async function attachSession(
  state: AcpConnectionState,
  params: AcpAttachParams,
  replay: boolean,
) {
  const { deps, sessions, options } = state
  const { sessionId } = params
  assertSignedIn(state.auth)
  await options.refresh()
  if (sessions.get(sessionId)) {
    const message = `Session "${sessionId}" is already live on this connection: keep using it, or close it (session/close) first.`
    throw RequestError.invalidRequest({ sessionId }, message)
  }
  const channels = new AcpSessionChannels()
  let agent: Agent
  try {
    agent = await deps.restoreAgent(sessionId, channels)
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
  const record = sessions.open(agent, channels)
  if (replay) await record.replay()
  const moved = options.moveRetired(record)
  options.announce(record, moved)
  deps.onOpened(record, params.mcpServers ?? [])
  return { ...modesOf(state, agent), configOptions: options.of(record) }
}

export function listSessions(
  state: AcpConnectionState,
  params: ListSessionsRequest,
): ListSessionsResponse {
  let page: SessionListPage
  try {
    page = state.deps.storedSessions({
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
  return { sessions: infos, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) }
}

export async function deleteSession(state: AcpConnectionState, params: DeleteSessionRequest) {
  // A session live on this connection is closed first (its turn cancelled, its store released).
  await state.sessions.close(params.sessionId)
  try {
    state.deps.deleteSession(params.sessionId)
  } catch (error) {
    throw toRequestError(error, params.sessionId)
  }
  return {}
}

export async function closeSession(state: AcpConnectionState, params: CloseSessionRequest) {
  if (!(await state.sessions.close(params.sessionId))) throw sessionNotFound(params.sessionId)
  return {}
}
