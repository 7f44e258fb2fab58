// The presenter: one session event → the ACP `session/update` payloads it shows as.
// Assistant text → agent_message_chunk, reasoning → agent_thought_chunk, tool/call →
// tool_call (from the tool's presentCall), tool/result → tool_call_update (from its
// presentResult, else the result text), a failed turn → its error as a message chunk.
// Pure: the tool presentations come in through `AcpPresenterContext` (the registry's
// presentCall/presentResult, called with `view { cwd }`); nothing is sent from here.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionEvent } from '@deepseek-ai/dsh-agent'
import type {
  ToolCallPresentation,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import { toAcpToolCall, toAcpToolCallUpdate } from './to-acp'

/** The part of ctx.tools the presenter uses. Both never throw. */
export interface AcpToolPresenter {
  presentCall(
    name: string,
    args: unknown,
    view?: ToolPresentationView,
  ): ToolCallPresentation | undefined
  presentResult(
    name: string,
    args: unknown,
    result: ToolResultView,
    view?: ToolPresentationView,
  ): ToolResultPresentation | undefined
}

export interface AcpPresenterContext {
  tools: AcpToolPresenter
  /** The session workspace (absolute). */
  cwd: string
  /** The arguments of an earlier tool/call of this session, for presentResult. */
  argsOf(callId: string): unknown
}

export function presentSessionEvent(
  event: SessionEvent,
  context: AcpPresenterContext,
): SessionUpdate[] {
  const view = { cwd: context.cwd }
  switch (event.type) {
    case 'assistant/chunk':
      if (event.text.length === 0) return []
      return [
        {
          sessionUpdate: event.kind === 'reasoning' ? 'agent_thought_chunk' : 'agent_message_chunk',
          content: { type: 'text', text: event.text },
        },
      ]
    case 'tool/call': {
      const presentation = context.tools.presentCall(event.name, event.arguments, view)
      return [
        toAcpToolCall(
          { callId: event.callId, name: event.name, args: event.arguments, cwd: context.cwd },
          presentation,
        ),
      ]
    }
    case 'tool/result': {
      const result: ToolResultView = {
        content: event.content,
        isError: event.isError,
        details: event.details,
      }
      const presentation = context.tools.presentResult(
        event.name,
        context.argsOf(event.callId),
        result,
        view,
      )
      return [
        toAcpToolCallUpdate(
          {
            callId: event.callId,
            content: event.content,
            isError: event.isError,
            error: event.error,
            cwd: context.cwd,
          },
          presentation,
        ),
      ]
    }
    case 'turn/end':
      if (event.reason !== 'error') return []
      return [
        {
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: `\n\nError: ${event.error ?? 'the turn failed.'}` },
        },
      ]
    case 'session/mode':
      return [{ sessionUpdate: 'current_mode_update', currentModeId: event.mode }]
    case 'tool/asked':
    case 'tool/started':
      // A card's progress: the session record opens or moves the card (./tool-cards).
      return []
    case 'turn/start':
    case 'user/message':
      // The client sent the user message itself; turn boundaries are the prompt response.
      return []
  }
}
