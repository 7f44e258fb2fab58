// Converters for asking a person about a tool call: the permission layer's request (the card,
// the preview, the options) → the `session/request_permission` params, and the client's answer
// → the permission layer's answer. Pure: no I/O, no connection.
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk'
import type { ToolPermissionAnswer, ToolPermissionRequest } from '@deepseek-ai/dsh-tools'
import { toAcpPermissionToolCall } from './permission-card'
import type { AcpToolCall } from './to-acp'

/**
 * The request for card `toolCallId`, standing alone: it carries the card as it went out
 * `pending` (`card`: its content with the preview, its `rawInput`), see ./permission-card.
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

export function fromAcpPermissionResponse(
  response: RequestPermissionResponse,
): ToolPermissionAnswer {
  const { outcome } = response
  return outcome.outcome === 'selected'
    ? { outcome: 'selected', optionId: outcome.optionId }
    : { outcome: 'cancelled' }
}
