// Tool definitions: `defineTool` (an identity helper for inference), the checks `register` runs
// before a definition is accepted, and its model-facing schema, drawn when the tools are first
// listed for a model (zod's JSON Schema conversion costs a millisecond or more a tool, which a
// start registering every tool should not pay before its first answer).
import { ToolError } from './errors'
import { toolSchema } from './schema'
import type { ToolDefinition, ToolInput, ToolSchema } from './types'

/** Identity helper: types `execute`'s args and the presenters from `input`. */
export function defineTool<I extends ToolInput, D = unknown>(
  def: ToolDefinition<I, D>,
): ToolDefinition<I, D> {
  return def
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

/** Throws TOOL_INVALID_DEFINITION for a definition whose shape a model could not be offered. */
export function checkDefinition(def: ToolDefinition<ToolInput, unknown>): void {
  const name: unknown = def.name
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new ToolError(
      'TOOL_INVALID_DEFINITION',
      `Tool name ${JSON.stringify(name)} is invalid: use 1-64 letters, digits, "_" or "-".`,
    )
  }
  if (typeof def.description !== 'string' || typeof def.execute !== 'function') {
    throw new ToolError(
      'TOOL_INVALID_DEFINITION',
      `Tool "${name}" needs a description and an execute function.`,
    )
  }
  if (def.input?._zod?.def?.type !== 'object') {
    throw new ToolError('TOOL_INVALID_DEFINITION', `Tool "${name}" needs a zod object as input.`)
  }
  const { parameters } = def
  if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null)) {
    throw new ToolError(
      'TOOL_INVALID_DEFINITION',
      `Tool "${name}" has parameters that are not a JSON Schema object.`,
    )
  }
}

/** The schema a model sees; throws TOOL_INVALID_DEFINITION for an input JSON Schema cannot express. */
export function modelSchema(def: ToolDefinition): ToolSchema {
  const name = def.name
  try {
    return toolSchema(def)
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    throw new ToolError(
      'TOOL_INVALID_DEFINITION',
      `Tool "${name}" has an input that JSON Schema cannot express: ${reason}`,
      { cause },
    )
  }
}
