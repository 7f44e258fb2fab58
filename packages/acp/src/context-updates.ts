// The session's context on the wire, pure: a usage event → `usage_update { used, size, cost? }`;
// a compaction → `compaction_update` (in progress, then completed or failed, with its summary
// as one `compaction_summary_chunk`) for a client that advertised `session.compaction`, else
// one short agent message saying what was done. The commands the agent offers
// (`available_commands_update`) and how a prompt names one are here too.
import type { AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk'
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

/** The prompt command that compacts the conversation on demand. */
export const COMPACT_COMMAND: AvailableCommand = {
  name: 'compact',
  description: 'Compact the conversation now: old tool outputs elided, older turns summarised',
}

/** The prompt command that puts the session in plan mode (offered where `plan` is a mode). */
export const PLAN_COMMAND: AvailableCommand = {
  name: 'plan',
  description: 'Plan first: look around and propose a plan; nothing changes until you approve it',
  input: { hint: 'what to plan (optional)' },
}

export function toAcpAvailableCommands(plan = false): SessionUpdate {
  return {
    sessionUpdate: 'available_commands_update',
    availableCommands: plan ? [COMPACT_COMMAND, PLAN_COMMAND] : [COMPACT_COMMAND],
  }
}

/** For a `/plan [text]` prompt, the text after the command (empty for none); else undefined. */
export function planCommandText(text: string): string | undefined {
  const match = /^\/plan(?:\s+([\s\S]*))?$/.exec(text.trim())
  return match === null ? undefined : (match[1] ?? '').trim()
}

/** True for a prompt that is the /compact command (`/compact`, or `/compact` and more text). */
export function isCompactCommand(text: string): boolean {
  return /^\/compact(\s|$)/.test(text.trimStart())
}
