// The presenter: one session event → the ACP `session/update` payloads it shows as.
// Assistant text → agent_message_chunk, reasoning → agent_thought_chunk, tool/call →
// tool_call (from the card the agent presented with it), tool/result → tool_call_update (from
// its result card, else the result text; and a `plan` when the result set one), a failed turn →
// its error as a message chunk, a mode change → current_mode_update, the context's usage and
// compactions (./context-updates), a context source's note → its line for the person (a
// notice, or a message chunk). Pure: the events carry their presentations (the agent asks
// the tools once, with the session cwd), so a live turn and a stored one replay alike.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionEvent } from '@deepseek-ai/dsh-agent'
import { toAcpCompactionEnd, toAcpCompactionStart, toAcpUsageUpdate } from './context-updates'
import { withAcpPlan } from './plan'
import { toAcpNotice } from '../sessions/session-opening'
import { toAcpToolCall, toAcpToolCallUpdate } from '../wire/to-acp'

export interface AcpPresenterContext {
  /** The session workspace (absolute): relative paths on the wire are made absolute to it. */
  cwd: string
  /** The client advertised `session.compaction`: compactions go as compaction updates. */
  compaction?: boolean
  /** The client advertised `session.notices`: a note's line goes as a `notice`. */
  notices?: boolean
}

export function presentSessionEvent(
  event: SessionEvent,
  context: AcpPresenterContext,
): SessionUpdate[] {
  switch (event.type) {
    case 'assistant/chunk':
      if (event.text.length === 0) return []
      return [
        {
          sessionUpdate: event.kind === 'reasoning' ? 'agent_thought_chunk' : 'agent_message_chunk',
          content: { type: 'text', text: event.text },
        },
      ]
    case 'tool/call':
    case 'tool/result':
      return presentCallEvent(event, context.cwd)
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
    case 'context/usage':
      return [toAcpUsageUpdate(event)]
    case 'context/compacting':
      return toAcpCompactionStart(event, context.compaction === true)
    case 'context/compacted':
      return toAcpCompactionEnd(event, context.compaction === true)
    case 'context/note':
      // What the person is shown of a note for the model (which instruction files were loaded).
      if (event.display === undefined) return []
      return [toAcpNotice({ title: event.display }, context.notices === true)]
    case 'session/model':
    case 'session/thought-level':
      // The whole option set goes out: the session record knows the options (config_option_update).
      return []
    case 'tool/asked':
    case 'tool/started':
    case 'tool/output':
    case 'tool/status':
    case 'tool/content':
      // A card's progress: the session record opens or moves the card (./tool-cards).
      return []
    case 'turn/start':
    case 'user/message':
    case 'session/note':
      // The client sent the user message itself; turn boundaries are the prompt response.
      return []
  }
}

/** A call's card as it opens, or as its result closes it. */
function presentCallEvent(
  event: Extract<SessionEvent, { type: 'tool/call' | 'tool/result' }>,
  cwd: string,
): SessionUpdate[] {
  if (event.type === 'tool/call') {
    const call = { callId: event.callId, name: event.name, args: event.arguments, cwd }
    return [toAcpToolCall(call, event.presentation)]
  }
  const { callId, content, isError, error } = event
  const card = toAcpToolCallUpdate({ callId, content, isError, error, cwd }, event.presentation)
  // A call that set the session's plan: a compact card, then the plan itself.
  return withAcpPlan(card, event.presentation?.plan)
}
