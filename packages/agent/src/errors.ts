// AgentError: the errors the agent host throws to its caller (bad cwd, busy, disposed, empty
// message). Model and tool failures are not thrown: they end a turn or become tool results.
export type AgentErrorCode =
  'AGENT_BAD_CWD' | 'AGENT_BUSY' | 'AGENT_DISPOSED' | 'AGENT_EMPTY_MESSAGE'

export class AgentError extends Error {
  override readonly name = 'AgentError'

  constructor(
    readonly code: AgentErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError
}
