// The tool call a permission request carries: the card exactly as the client was shown it
// `pending` — title, kind, locations, the arguments (`rawInput`) and the preview (a diff, a
// command) — so a client that shows only the request still shows what it approves. Built by the
// card's own converter (toAcpToolCall), so whatever that converter does to a card (its
// `rawInput` included) a request gets too. Pure: no I/O, no connection.
import type { ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk'
import type { ToolPermissionRequest } from '@deepseek-ai/dsh-tools'
import { toAcpContent, toAcpToolCall } from '../wire/to-acp'
import type { AcpToolCall } from '../wire/to-acp'

/** The `pending` card of a call asked about: its opening with the preview after its content. */
export function toAcpPendingToolCall(
  opening: AcpToolCall,
  preview: readonly ToolCallContent[],
): AcpToolCall {
  const content = [...(opening.content ?? []), ...preview]
  return { ...opening, status: 'pending', ...(content.length > 0 && { content }) }
}

/**
 * The request's `toolCall`: the `pending` card the session showed (`card`), or, for a call the
 * session never opened a card for, the card its presentation and preview make.
 */
export function toAcpPermissionToolCall(
  toolCallId: string,
  request: ToolPermissionRequest,
  cwd: string,
  card?: AcpToolCall,
): ToolCallUpdate {
  const { exec, presentation, preview } = request
  const shown =
    card ??
    toAcpPendingToolCall(
      toAcpToolCall(
        { callId: toolCallId, name: exec.name, args: exec.arguments, cwd },
        presentation,
      ),
      toAcpContent(preview, cwd),
    )
  const { sessionUpdate: _update, ...toolCall } = shown
  return { ...toolCall, toolCallId, status: 'pending' }
}
