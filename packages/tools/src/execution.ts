// The steps of one call around the waterfall: running the tool with parsed args, the
// cancellation result, and presenter calls that can never throw. Cordis-free.
import { checkToolArguments } from './arguments'
import { codeOf, errorResult, outputResult, toolErrorResult } from './results'
import type { ToolDefinition, ToolExecution, ToolExecutionResult } from './types'

export async function run(
  def: ToolDefinition,
  args: Record<string, unknown>,
  exec: ToolExecution,
): Promise<ToolExecutionResult> {
  if (exec.signal?.aborted) return aborted(exec, 'before it started')
  try {
    exec.report?.({ type: 'started' })
    return outputResult(exec.callId, def.name, await def.execute(args, exec))
  } catch (thrown) {
    if (exec.signal?.aborted && codeOf(thrown) === undefined)
      return aborted(exec, 'while it was running')
    return errorResult(exec.callId, thrown)
  }
}

export function aborted(exec: ToolExecution, when: string): ToolExecutionResult {
  const text = `The call of "${exec.name}" was cancelled ${when}.`
  return toolErrorResult(exec.callId, 'TOOL_ABORTED', text)
}

export function safely<T>(
  def: ToolDefinition,
  args: unknown,
  present: (parsed: Record<string, unknown>) => T | undefined,
): T | undefined {
  try {
    const check = checkToolArguments(def.input, args)
    return check.ok ? (present(check.args) ?? undefined) : undefined
  } catch {
    // A presenter must never break the UI: a throw means "no presentation" (the generic card).
    return undefined
  }
}

export function isExecutionResult(value: unknown): value is ToolExecutionResult {
  if (typeof value !== 'object' || value === null) return false
  const result = value as Record<string, unknown>
  return Array.isArray(result.content) && typeof result.isError === 'boolean'
}
