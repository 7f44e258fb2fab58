// The session's current plan, found in its log: the last tool result that succeeded and whose
// presentation carries a `plan` (the tools' neutral field; a `todo` tool sets it). A history
// that drops older tool outputs to save context keeps this one whole, or puts
// `planReminderOf` back after whatever replaced it, so the model still sees its plan.
// Pure: events in, values out. Not the tool that sets the plan (tool-plan).
import type { LlmMessage } from '@deepseek-ai/dsh-llm'
import type { ToolPlanEntry } from '@deepseek-ai/dsh-tools'
import type { StoredSessionEvent } from './store'

export interface SessionPlan {
  /** The call that set it: its result is the one to keep whole. */
  callId: string
  entries: ToolPlanEntry[]
  /** The result text the model got when it set the plan. */
  text: string
}

/** The plan the session's last successful plan-setting call left; `undefined` when none. */
export function currentPlanOf(events: readonly StoredSessionEvent[]): SessionPlan | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]
    if (event?.type !== 'tool/result' || event.isError) continue
    const entries = event.presentation?.plan
    if (entries === undefined) continue
    const text = event.content.map((block) => block.text).join('\n')
    return { callId: event.callId, entries, text }
  }
  return undefined
}

/**
 * The current plan as a message to put back into a conversation whose earlier part was
 * summarised or elided; `undefined` when the session has no plan, or an empty one.
 */
export function planReminderOf(events: readonly StoredSessionEvent[]): LlmMessage | undefined {
  const plan = currentPlanOf(events)
  if (plan === undefined || plan.entries.length === 0) return undefined
  return {
    role: 'user',
    content:
      'Your current plan, as you last set it (earlier messages were shortened to save ' +
      `context):\n${plan.text}`,
  }
}
