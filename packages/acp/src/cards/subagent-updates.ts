// ACP's subagent updates (unstable v1: `subagent_update`, for a client that advertised
// `clientCapabilities.subagents`): a child session announced on its immediate parent's session
// with its title, its workspace and the parent's call that started it, then its work state
// (running, waiting on the person, idle with why it stopped). Pure converters, typed by the
// SDK's unstable entrypoint, which alone knows these updates. Not the sending (../sessions/child-sessions).
import type { SessionUpdate as AcpWireUpdate } from '@agentclientprotocol/sdk/unstable'
import type { SessionHeader, TurnEndReason } from '@deepseek-ai/dsh-agent'
import { clipLongString } from '@deepseek-ai/dsh-tools'

export type { AcpWireUpdate }

export type AcpSubagentUpdate = Extract<AcpWireUpdate, { sessionUpdate: 'subagent_update' }>

/** The client advertised subagent sessions (`clientCapabilities.subagents`, a non-null object). */
export function offersSubagents(capabilities: { subagents?: unknown } | undefined): boolean {
  const subagents = capabilities?.subagents
  return typeof subagents === 'object' && subagents !== null
}

/**
 * The announcement of child session `header` (sent on its parent's session before any update
 * of its own): its title, workspace and roots, and, in `_meta.dsh.parentToolCallId`, the wire id
 * of the parent's card of the call that started it.
 */
export function toAcpSubagentAnnounce(
  header: SessionHeader,
  parentToolCallId: string | undefined,
): AcpSubagentUpdate {
  const extra = header.roots.slice(1)
  return {
    sessionUpdate: 'subagent_update',
    sessionId: header.id,
    ...(header.title !== undefined && { title: header.title }),
    cwd: header.cwd,
    ...(extra.length > 0 && { additionalDirectories: extra }),
    ...(parentToolCallId !== undefined && { _meta: { dsh: { parentToolCallId } } }),
  }
}

/** The child works (its turn began), or waits on the person (a question about its call). */
export function toAcpSubagentState(
  id: string,
  state: 'running' | 'requires_action',
): AcpSubagentUpdate {
  return { sessionUpdate: 'subagent_update', sessionId: id, state: { state } }
}

/** The child's turn ended: idle, with why (a failure with its message). */
export function toAcpSubagentIdle(
  id: string,
  end: { reason: TurnEndReason; error?: string | undefined },
): AcpSubagentUpdate {
  const state =
    end.reason === 'error'
      ? {
          state: 'idle' as const,
          stopReason: 'error' as const,
          error: { code: -32603, message: end.error ?? 'the delegate failed' },
        }
      : {
          state: 'idle' as const,
          stopReason:
            end.reason === 'completed'
              ? ('end_turn' as const)
              : end.reason === 'cancelled'
                ? ('cancelled' as const)
                : ('max_turn_requests' as const),
        }
  return { sessionUpdate: 'subagent_update', sessionId: id, state }
}

/** The child's prompt (what its parent asked of it), on the child's own session. */
export function toAcpChildPrompt(text: string): AcpWireUpdate {
  return {
    sessionUpdate: 'user_message_chunk',
    content: { type: 'text', text: clipLongString(text) },
  }
}
