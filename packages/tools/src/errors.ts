// ToolError: the error the registry reports for calls it refuses before or after a tool runs,
// and the agent host for arguments that are not JSON. Tools may throw any error with a string
// `code` (an FsError, their own); the registry turns every throw into an error result, so this
// class is for the registry's own codes, listed here and in the README.
import { codedError, guardOf } from './coded-error'

export const TOOL_ERROR_CODES = [
  /** The call names no registered tool. */
  'TOOL_UNKNOWN',
  /** The arguments do not match the tool's input schema. */
  'TOOL_INVALID_ARGUMENTS',
  /** The arguments text the model sent is not JSON (the agent host parses it). */
  'TOOL_INVALID_JSON',
  /** The call's signal fired before the tool started (or the tool threw after it fired). */
  'TOOL_ABORTED',
  /** The tool returned something that is not a tool output. */
  'TOOL_INVALID_OUTPUT',
  /** `register` was given a definition that cannot be offered to a model. */
  'TOOL_INVALID_DEFINITION',
  /** `register` was given a name that is already registered. */
  'TOOL_DUPLICATE',
] as const

export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number]

export class ToolError extends codedError('ToolError', TOOL_ERROR_CODES) {}

/** True for a ToolError (of `code`, when given). */
export const isToolError = guardOf(ToolError)
