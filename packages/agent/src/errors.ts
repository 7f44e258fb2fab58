// AgentError: the errors the agent host throws to its caller (bad cwd, busy, disposed, empty
// message), listed here and in the README. Model and tool failures are not thrown: they end a
// turn or become tool results (arguments that are not JSON are the tools package's
// TOOL_INVALID_JSON).
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const AGENT_ERROR_CODES = [
  /** `cwd` is missing, relative, not existing, or not a directory. */
  'AGENT_BAD_CWD',
  /** `send` was called while a turn of the same agent runs. */
  'AGENT_BUSY',
  /** `send` on a disposed agent, or `create` on a disposed service. */
  'AGENT_DISPOSED',
  /** `send` was given an empty or blank message. */
  'AGENT_EMPTY_MESSAGE',
  /** `send` was given images for a model that reads text only (the message names it). */
  'AGENT_IMAGE_INPUT',
  /** No stored session has the id (or no store is configured). */
  'AGENT_SESSION_NOT_FOUND',
  /** A stored session's files are not a session the store wrote; they are left as they are. */
  'AGENT_SESSION_UNREADABLE',
  /** Another live process writes the session, or it is live here already. */
  'AGENT_SESSION_LOCKED',
  /** The store's disk failed (the message has the system's reason). */
  'AGENT_STORE_IO',
] as const

export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number]

export class AgentError extends codedError('AgentError', AGENT_ERROR_CODES) {}

/** True for an AgentError (of `code`, when given). */
export const isAgentError = guardOf(AgentError)
