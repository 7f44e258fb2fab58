// Which of a step's calls may run beside others, and in which lane: a call whose tool's access
// states a `concurrency` group waits its turn in that group's lane (at most its limit at once);
// else a call whose effect is `read` (see `callEffect` in tools) in the reads' lane, at most
// READ_CONCURRENCY at once; any other call has no lane and runs alone. Pure but for the access
// hook it asks; never rejects.
import { callEffect } from '@deepseek-ai/dsh-tools'
import type { ToolCallAccess, ToolCallPresentation, ToolExecution } from '@deepseek-ai/dsh-tools'

/** The most read-only calls that run at once. */
export const READ_CONCURRENCY = 8

/** Where a call that may run beside others waits its turn: its group, and how many at once. */
export interface Lane {
  key: string
  limit: number
}

const READ_LANE: Lane = { key: 'effect read', limit: READ_CONCURRENCY }

/**
 * The call's lane: its access's `concurrency` group, else the reads' when its effect (as the
 * permission gate reads it) is `read`; none when there is no access hook, when it throws, or
 * when it states a limit that is not a whole number of at least 1.
 */
export async function laneOf(
  access: ((exec: ToolExecution) => Promise<ToolCallAccess | undefined>) | undefined,
  exec: ToolExecution,
  kind: ToolCallPresentation['kind'],
): Promise<Lane | undefined> {
  if (access === undefined) return undefined
  try {
    const stated = await access(exec)
    const group = stated?.concurrency
    if (group !== undefined) {
      const fits = Number.isInteger(group.limit) && group.limit >= 1
      return fits ? { key: `group ${group.group}`, limit: group.limit } : undefined
    }
    return callEffect(stated, kind) === 'read' ? READ_LANE : undefined
  } catch {
    // A runner that breaks its contract: the call runs alone, the safe order.
    return undefined
  }
}
