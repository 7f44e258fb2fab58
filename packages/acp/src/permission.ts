// Converters for asking a person about a tool call: the permission layer's request (the card,
// the preview, the options) → the `session/request_permission` params, and the client's answer
// → the permission layer's answer. Pure: no I/O, no connection.
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk'
import type { ToolPermissionAnswer, ToolPermissionRequest } from '@deepseek-ai/dsh-tools'
import { toAcpLocations } from './to-acp'

/**
 * The request for card `toolCallId`. The card itself already went out `pending` with the
 * preview; the request names it with its title, kind and locations (not the diff again).
 */
export function toAcpPermissionRequest(
  sessionId: string,
  toolCallId: string,
  request: ToolPermissionRequest,
  cwd: string,
): RequestPermissionRequest {
  const { presentation } = request
  const locations = presentation.locations ?? []
  const options: PermissionOption[] = request.options.map(({ optionId, name, kind }) => ({
    optionId,
    name,
    kind,
  }))
  return {
    sessionId,
    toolCall: {
      toolCallId,
      title: presentation.title,
      kind: presentation.kind ?? 'other',
      status: 'pending',
      ...(locations.length > 0 && { locations: toAcpLocations(locations, cwd) }),
    },
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
