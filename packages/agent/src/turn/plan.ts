// The session's current plan, found in its log: the last tool result that succeeded and whose
// presentation carries a `plan` (the tools' neutral field; a `todo` tool sets it). A history
// that drops older tool outputs to save context keeps this one whole, and a summary's opening
// carries its text (../context/context), so the model still sees its plan.
// Pure: events in, values out. Not the tool that sets the plan (tool-plan).
import type { ToolPlanEntry } from '@deepseek-ai/dsh-tools'
import type { StoredSessionEvent } from '../sessions/store'
import type { SessionEvent } from '../types'

export interface SessionPlan {
  /** The call that set it: its result is the one to keep whole. */
  callId: string
  entries: ToolPlanEntry[]
  /** The result text the model got when it set the plan. */
  text: string
}

/** The plan the session's last successful plan-setting call left; `undefined` when none. */
export function currentPlanOf(
  events: readonly (StoredSessionEvent | SessionEvent)[],
): SessionPlan | undefined {
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
