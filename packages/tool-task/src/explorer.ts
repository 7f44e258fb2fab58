// A delegate's limits, as a `tools/execute` listener. A delegate of a project type (and its
// delegates) may call only the tools its type lists. The explorer's rule: a call of an
// explorer's session (or of its delegates') whose effect is not `read` or `none` is refused.
// Both before the call runs, in every mode, and nobody is asked; the effect is the tool's own
// word (`callEffect`).
import type ToolRegistry from '@deepseek-ai/dsh-tools'
import { callEffect } from '@deepseek-ai/dsh-tools'
import type { ToolExecution, ToolExecutionResult, ToolSession } from '@deepseek-ai/dsh-tools'
import { TaskError } from './errors'

export interface DelegateLimits {
  /** The sessions of explorers (and of their delegates): their changes are refused. */
  explorers: WeakSet<ToolSession>
  /** The tools a project type's delegate (and its delegates) may call. */
  allowedTools: WeakMap<ToolSession, ReadonlySet<string>>
  /** How deep each delegate's session is below its root (a root's is 0, a delegate's 1). */
  depths: WeakMap<ToolSession, number>
}

export async function guardDelegate(
  tools: ToolRegistry,
  limits: DelegateLimits,
  exec: ToolExecution,
  next: () => Promise<ToolExecutionResult>,
): Promise<ToolExecutionResult> {
  const session = exec.session
  if (session === undefined) return next()
  const allowed = limits.allowedTools.get(session)
  if (allowed !== undefined && !allowed.has(exec.name)) {
    const may = [...allowed].join(', ') || 'no tool'
    throw new TaskError(
      'TASK_TOOL_NOT_ALLOWED',
      `Your delegate type may not call "${exec.name}"; it may call: ${may}.`,
    )
  }
  if (!limits.explorers.has(session)) return next()
  const view = { cwd: session.header.cwd, session: session.header.id }
  const kind = tools.presentCall(exec.name, exec.arguments, view)?.kind
  const effect = callEffect(await tools.access(exec), kind)
  if (effect === 'read' || effect === 'none') return next()
  throw new TaskError(
    'TASK_READ_ONLY',
    `You are an explorer: "${exec.name}" would ${effect === 'write' ? 'change files' : 'run something that may change things'}, which is refused. Report what should change instead.`,
  )
}
