// Building ToolExecutionResults: a tool's output normalised to `{ content, details? }`, and
// any thrown value turned into an error result. Cordis-free. `details` is carried beside the
// content and never rendered into it: it is for presentation, not for the model.
import { ToolError } from './errors'
import type { ToolErrorCode } from './errors'
import type { ToolContent, ToolExecutionResult, ToolImage } from './types'

/**
 * The error result for a thrown value: `Error: <message>`, plus `{ name, code }` when coded
 * (and `forPerson`, the error's sentence for a person, when it has one).
 */
export function errorResult(callId: string, thrown: unknown): ToolExecutionResult {
  const result: ToolExecutionResult = {
    callId,
    content: [{ type: 'text', text: `Error: ${messageOf(thrown)}` }],
    isError: true,
  }
  const code = codeOf(thrown)
  const forPerson = forPersonOf(thrown)
  if (code !== undefined) {
    result.error = { name: nameOf(thrown), code, ...(forPerson !== undefined && { forPerson }) }
  }
  return result
}

/** The thrown value's sentence for the person (a string `forPerson`), when it has one. */
function forPersonOf(thrown: unknown): string | undefined {
  if (typeof thrown !== 'object' || thrown === null || !('forPerson' in thrown)) return undefined
  const text = (thrown as { forPerson: unknown }).forPerson
  return typeof text === 'string' && text !== '' ? text : undefined
}

/** A registry-made error result (TOOL_UNKNOWN, TOOL_INVALID_ARGUMENTS, …). */
export function toolErrorResult(
  callId: string,
  code: ToolErrorCode,
  message: string,
): ToolExecutionResult {
  return errorResult(callId, new ToolError(code, message))
}

/** Normalises what a tool's `execute` resolved to; a value of another shape is an error. */
export function outputResult(
  callId: string,
  toolName: string,
  output: unknown,
): ToolExecutionResult {
  if (
    typeof output === 'object' &&
    output !== null &&
    !Array.isArray(output) &&
    'content' in output
  ) {
    const content = toContent(output.content)
    if (content !== undefined) {
      const isError = 'isError' in output && output.isError === true
      const result: ToolExecutionResult = { callId, content, isError }
      if ('details' in output && output.details !== undefined) result.details = output.details
      const images = 'images' in output ? imagesOf(output.images) : []
      if (images === undefined) return invalidOutput(callId, toolName)
      if (images.length > 0) result.images = images
      return result
    }
  } else {
    const content = toContent(output)
    if (content !== undefined) return { callId, content, isError: false }
  }
  return invalidOutput(callId, toolName)
}

function invalidOutput(callId: string, toolName: string): ToolExecutionResult {
  return toolErrorResult(
    callId,
    'TOOL_INVALID_OUTPUT',
    `Tool "${toolName}" returned an invalid result (expected a string, text blocks, or { content, details, images }).`,
  )
}

/** `images` of an output: each `{ mimeType: 'image/…', data }`; undefined when one is not. */
function imagesOf(value: unknown): ToolImage[] | undefined {
  if (value === undefined) return []
  if (!Array.isArray(value)) return undefined
  const images: ToolImage[] = []
  for (const item of value) {
    const { mimeType, data } = (item ?? {}) as Record<string, unknown>
    if (typeof mimeType !== 'string' || !mimeType.startsWith('image/')) return undefined
    if (typeof data !== 'string') return undefined
    images.push({ mimeType, data })
  }
  return images
}

function toContent(value: unknown): ToolContent[] | undefined {
  if (typeof value === 'string') return [{ type: 'text', text: value }]
  if (!Array.isArray(value)) return undefined
  const blocks: ToolContent[] = []
  for (const block of value) {
    if (!isTextBlock(block)) return undefined
    blocks.push({ type: 'text', text: block.text })
  }
  return blocks
}

function isTextBlock(value: unknown): value is ToolContent {
  if (typeof value !== 'object' || value === null) return false
  const block = value as Record<string, unknown>
  return block.type === 'text' && typeof block.text === 'string'
}

function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name || 'Unknown error'
  if (typeof thrown === 'object' && thrown !== null && 'message' in thrown) {
    const message = (thrown as { message: unknown }).message
    if (typeof message === 'string' && message !== '') return message
  }
  if (typeof thrown === 'string' && thrown !== '') return thrown
  return `Unknown error (${safeString(thrown)})`
}

function safeString(value: unknown): string {
  try {
    return String(value)
  } catch {
    // A value without a usable toString (e.g. a null-prototype object): name its type instead.
    return typeof value
  }
}

/** The thrown value's `code` when it is a string. */
export function codeOf(thrown: unknown): string | undefined {
  if (typeof thrown !== 'object' || thrown === null || !('code' in thrown)) return undefined
  const code = (thrown as { code: unknown }).code
  return typeof code === 'string' ? code : undefined
}

function nameOf(thrown: unknown): string {
  if (typeof thrown === 'object' && thrown !== null && 'name' in thrown) {
    const name = (thrown as { name: unknown }).name
    if (typeof name === 'string' && name !== '') return name
  }
  return 'Error'
}
