// The session's context on the wire, pure: a usage event → `usage_update { used, size, cost? }`;
// a compaction → `compaction_update` (in progress, then completed or failed, with its summary
// as one `compaction_summary_chunk`) for a client that advertised `session.compaction`, else
// one short agent message saying what was done. The commands a session offers are
// ../sessions/session-commands.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionEvent } from '@deepseek-ai/dsh-agent'

type Of<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>

export function toAcpUsageUpdate(event: Of<'context/usage'>): SessionUpdate {
  return {
    sessionUpdate: 'usage_update',
    used: Math.max(0, Math.round(event.used)),
    size: event.size,
    ...(event.cost !== undefined && {
      cost: { amount: event.cost.amount, currency: event.cost.currency },
    }),
  }
}

/** The updates of a compaction's start: only a client with the capability sees one. */
export function toAcpCompactionStart(
  event: Of<'context/compacting'>,
  capable: boolean,
): SessionUpdate[] {
  if (!capable) return []
  return [
    { sessionUpdate: 'compaction_update', compactionId: event.compactionId, status: 'in_progress' },
  ]
}

/** The updates of a compaction's end: its summary and status, or one agent message. */
export function toAcpCompactionEnd(
  event: Of<'context/compacted'>,
  capable: boolean,
): SessionUpdate[] {
  const { compactionId } = event
  if (!capable) {
    return [
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: compactionMessage(event) },
      },
    ]
  }
  const updates: SessionUpdate[] = []
  if (event.summary !== undefined) {
    updates.push({
      sessionUpdate: 'compaction_summary_chunk',
      compactionId,
      content: { type: 'text', text: event.summary.text },
    })
  }
  const changed = event.replaced.length > 0 || event.summary !== undefined
  updates.push({
    sessionUpdate: 'compaction_update',
    compactionId,
    status: changed || event.summaryError === undefined ? 'completed' : 'failed',
    ...(event.summaryError !== undefined && {
      error: `The summary could not be made: ${event.summaryError}`,
    }),
  })
  return updates
}

/** "Context compacted: 14 tool outputs elided, older turns summarised." */
export function compactionMessage(event: Of<'context/compacted'>): string {
  const parts: string[] = []
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
  if (event.elided > 0) parts.push(`${plural(event.elided, 'tool output')} elided`)
  if (event.summary !== undefined) parts.push('older turns summarised')
  const cut = event.replaced.length - event.elided
  if (cut > 0) parts.push(`${plural(cut, 'recent output')} cut`)
  if (event.summaryError !== undefined) parts.push(`no summary (${event.summaryError})`)
  const what = parts.length > 0 ? parts.join(', ') : 'nothing to compact yet'
  return `\n\nContext compacted: ${what}.\n\n`
}
