// What a call threw, checked as an AgentError of one code.
import { isAgentError, type AgentError, type AgentErrorCode } from '@deepseek-ai/dsh-agent'
import { expect } from 'vitest'

function thrownBy(action: () => unknown): unknown {
  try {
    action()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw')
}

/** The AgentError `action` throws; fails unless it has `code` and a message matching `message`. */
export function expectAgentError(
  action: () => unknown,
  code: AgentErrorCode,
  message?: RegExp,
): AgentError {
  const error = thrownBy(action)
  expect(isAgentError(error) ? error.code : error).toBe(code)
  const agentError = error as AgentError
  if (message) expect(agentError.message).toMatch(message)
  return agentError
}
