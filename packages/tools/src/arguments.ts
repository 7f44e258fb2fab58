// Validation of a tool call's arguments against the tool's zod object, with an error text a
// model can act on: each offending field by name, what it expected, what it got. Not a zod
// dump. Cordis-free. Unknown top-level fields are refused (a typo such as `filepath` would
// otherwise be dropped silently) unless the tool's object is `.loose()` or has a catchall.
import type { z } from 'zod'
import type { ToolInput } from './types'
import { describeIssue, suggestName } from './issues'

export type ToolArgumentsCheck =
  { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] }

/** True when the object drops unknown keys by default, i.e. neither strict, loose nor catchall. */
export function refusesUnknownKeys(input: ToolInput): boolean {
  return input._zod.def.catchall === undefined
}

/** The field names the object declares, in declaration order. */
export function fieldNames(input: ToolInput): string[] {
  return Object.keys(input.shape)
}

/**
 * Parses `value` with the tool's input. `undefined` counts as `{}` (a model that calls a tool
 * without parameters may send no arguments at all).
 */
export function checkToolArguments(input: ToolInput, value: unknown): ToolArgumentsCheck {
  const raw = value === undefined ? {} : value
  const problems: string[] = []
  if (isPlainObject(raw) && refusesUnknownKeys(input)) {
    const known = fieldNames(input)
    for (const key of Object.keys(raw)) {
      if (known.includes(key)) continue
      const guess = suggestName(key, known)
      problems.push(
        `${key}: unknown field${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`,
      )
    }
  }
  const parsed = input.safeParse(raw)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(describeIssue(issue, raw, input))
  }
  if (problems.length > 0) return { ok: false, problems }
  if (!parsed.success) return { ok: false, problems: ['arguments: invalid'] }
  return { ok: true, args: parsed.data as z.infer<ToolInput> }
}

/** The text of a TOOL_INVALID_ARGUMENTS result, without the leading `Error: `. */
export function formatArgumentsProblems(
  toolName: string,
  input: ToolInput,
  problems: string[],
): string {
  let text = `Invalid arguments for "${toolName}": ${problems.join('; ')}`
  if (problems.some((problem) => problem.includes(': unknown field'))) {
    const fields = fieldNames(input)
    text += `. The fields of "${toolName}" are: ${fields.length > 0 ? fields.join(', ') : '(none)'}`
  }
  return text
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
