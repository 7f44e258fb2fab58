// Converters for asking a person about a tool call: the permission layer's request (the card,
// the preview, the options) → the `session/request_permission` params, and the client's answer
// (or its error answer) → the permission layer's answer. Pure: no I/O, no connection.
import type { PermissionOption, RequestPermissionRequest } from '@agentclientprotocol/sdk'
import type { ToolPermissionAnswer, ToolPermissionRequest } from '@deepseek-ai/dsh-tools'
import { toAcpPermissionToolCall } from '../cards/permission-card'
import type { AcpToolCall } from './to-acp'

/**
 * The request for card `toolCallId`, standing alone: it carries the card as it went out
 * `pending` (`card`: its content with the preview, its `rawInput`), see ../cards/permission-card.
 */
export function toAcpPermissionRequest(
  sessionId: string,
  toolCallId: string,
  request: ToolPermissionRequest,
  cwd: string,
  card?: AcpToolCall,
): RequestPermissionRequest {
  const options: PermissionOption[] = request.options.map(({ optionId, name, kind }) => ({
    optionId,
    name,
    kind,
  }))
  return {
    sessionId,
    toolCall: toAcpPermissionToolCall(toolCallId, request, cwd, card),
    options,
  }
}

/**
 * The client's answer. An answer that is not a permission outcome (a client's bug) means the
 * editor could not ask: `failed`, as an error answer is (see `fromAcpPermissionError`).
 */
export function fromAcpPermissionResponse(response: unknown): ToolPermissionAnswer {
  const outcome = recordOf(recordOf(response)?.outcome)
  if (outcome?.outcome === 'selected' && typeof outcome.optionId === 'string') {
    return { outcome: 'selected', optionId: outcome.optionId }
  }
  if (outcome?.outcome === 'cancelled') return { outcome: 'cancelled' }
  return {
    outcome: 'failed',
    reason: 'its answer to session/request_permission was not a permission outcome',
  }
}

/**
 * The client answered the request with a JSON-RPC error: nobody was asked, and nobody
 * cancelled either. The call is refused with the error's code and message as the reason.
 */
export function fromAcpPermissionError(error: {
  code: number
  message: string
}): ToolPermissionAnswer {
  const message = error.message.length > 200 ? `${error.message.slice(0, 200)}…` : error.message
  return {
    outcome: 'failed',
    reason: `it answered session/request_permission with error ${error.code}: ${message}`,
  }
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined
}
