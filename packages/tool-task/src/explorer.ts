// The explorer's rule: a call of an explorer's session (or of its delegates') whose effect is
// not `read` or `none` is refused before it runs, in every mode, and nobody is asked. A
// `tools/execute` listener; the effect is the tool's own word (`callEffect`).
import type ToolRegistry from '@deepseek-ai/dsh-tools'
import { callEffect } from '@deepseek-ai/dsh-tools'
import type { ToolExecution, ToolExecutionResult, ToolSession } from '@deepseek-ai/dsh-tools'
import { TaskError } from './errors'

export async function guardExplorer(
  tools: ToolRegistry,
  explorers: WeakSet<ToolSession>,
  exec: ToolExecution,
  next: () => Promise<ToolExecutionResult>,
): Promise<ToolExecutionResult> {
  const session = exec.agent?.session
  if (session === undefined || !explorers.has(session)) return next()
  const view = { cwd: session.header.cwd, session: session.header.id }
  const kind = tools.presentCall(exec.name, exec.arguments, view)?.kind
  const effect = callEffect(await tools.access(exec), kind)
  if (effect === 'read' || effect === 'none') return next()
  throw new TaskError(
    'TASK_READ_ONLY',
    `You are an explorer: "${exec.name}" would ${effect === 'write' ? 'change files' : 'run something that may change things'}, which is refused. Report what should change instead.`,
  )
}
