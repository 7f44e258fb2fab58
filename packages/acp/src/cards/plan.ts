// A plan as ACP shows it: the tools' neutral `plan` (a result presentation's whole list) becomes
// a `plan` update, which the client puts in place of the plan before; the card of the call that
// set it stays compact (its title; the list is not repeated as its content), and a quiet call
// (the todo tool: the plan is what the person follows) sends no card at all when it succeeds.
// Pure: no connection. The presenter sends it after the card, live and on replay alike.
import type { PlanEntry, SessionUpdate } from '@agentclientprotocol/sdk'
import type { ToolPlanEntry } from '@deepseek-ai/dsh-tools'
import type { AcpToolCallUpdate } from '../wire/to-acp'

export function toAcpPlan(entries: readonly ToolPlanEntry[]): SessionUpdate {
  const acpEntries: PlanEntry[] = entries.map(({ content, status, priority }) => ({
    content,
    status,
    priority,
  }))
  return { sessionUpdate: 'plan', entries: acpEntries }
}

/** The closing card of a call that set the plan, without the list as text; then the plan. */
export function withAcpPlan(
  card: AcpToolCallUpdate,
  plan: readonly ToolPlanEntry[] | undefined,
): SessionUpdate[] {
  if (plan === undefined || card.status !== 'completed') return [card]
  const { content: _listAsText, ...compact } = card
  return [compact, toAcpPlan(plan)]
}

/**
 * What a finished call sends: its card (opened, then closed) and what follows it; for a quiet
 * call (it shows itself through the plan) that set a plan, the plan alone.
 */
export function withoutQuietCard(
  opening: readonly SessionUpdate[],
  updates: readonly SessionUpdate[],
  quiet: boolean | undefined,
): SessionUpdate[] {
  if (quiet === true) {
    const plan = updates.filter((update) => update.sessionUpdate === 'plan')
    if (plan.length > 0) return plan
  }
  return [...opening, ...updates]
}
