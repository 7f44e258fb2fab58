// Converters from dsh's provider-neutral shapes to ACP wire shapes: tool presentations become
// `tool_call` / `tool_call_update` payloads, presentation content becomes ACP tool-call
// content (text, diff, image and resource-link blocks), locations are made absolute against the
// session cwd, and turn ends become stop reasons. Long strings of a call's arguments and result
// text are clipped (the tools package's clipLongStrings): a card shows a call, it does not carry
// a file.
// Pure: no I/O, no Cordis, no connection. The presenter composes these; tests call them alone.
import { isAbsolute, resolve } from 'node:path'
import type {
  SessionUpdate,
  StopReason,
  ToolCallContent,
  ToolCallLocation,
} from '@agentclientprotocol/sdk'
import type {
  ToolCallPresentation,
  ToolErrorInfo,
  ToolContent,
  ToolLocation,
  ToolPresentationContent,
  ToolResultPresentation,
} from '@deepseek-ai/dsh-tools'
import type { TurnEndReason } from '@deepseek-ai/dsh-agent'
import { clipLongString, clipLongStrings } from '@deepseek-ai/dsh-tools'

export type AcpToolCall = Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>
export type AcpToolCallUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>

/** ACP paths are absolute: a relative path is resolved against the session cwd. */
export function toAcpPath(path: string, cwd: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path)
}

/** A 1-based line as ACP documents it; anything else is left off rather than sent wrong. */
function toAcpLine(line: number | undefined): number | undefined {
  return line !== undefined && Number.isInteger(line) && line >= 1 && line <= 0xffffffff
    ? line
    : undefined
}

export function toAcpLocations(
  locations: readonly ToolLocation[],
  cwd: string,
): ToolCallLocation[] {
  return locations.map((location) => {
    const line = toAcpLine(location.line)
    const path = toAcpPath(location.path, cwd)
    return line === undefined ? { path } : { path, line }
  })
}

export function toAcpTextContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } }
}

/**
 * Presentation blocks → ACP tool-call content: a diff (its path made absolute), an image block,
 * a link as a `resource_link` block, text.
 */
export function toAcpContent(
  blocks: readonly ToolPresentationContent[],
  cwd: string,
): ToolCallContent[] {
  return blocks.map((block): ToolCallContent => {
    switch (block.type) {
      case 'diff': {
        const { oldText, newText } = block
        return { type: 'diff', path: toAcpPath(block.path, cwd), oldText, newText }
      }
      case 'image': {
        const { data, mimeType, uri } = block
        return { type: 'content', content: { type: 'image', data, mimeType, ...(uri && { uri }) } }
      }
      case 'link': {
        const { uri, name, title, mimeType } = block
        const link = { type: 'resource_link' as const, uri, name }
        return {
          type: 'content',
          content: { ...link, ...(title && { title }), ...(mimeType && { mimeType }) },
        }
      }
      case 'text':
        return toAcpTextContent(block.text)
    }
  })
}

/** The model-facing result text as tool-call content (one block per text block, clipped). */
export function toAcpResultContent(content: readonly ToolContent[]): ToolCallContent[] {
  return content.map((block) => toAcpTextContent(clipLongString(block.text)))
}

/**
 * The presentation's human-readable input summary as text, when it is text: a summary that is
 * an object is never shown as JSON (the arguments go as the call's `rawInput` already).
 */
function summaryText(rawInput: unknown): string | undefined {
  return typeof rawInput === 'string' && rawInput.length > 0 ? rawInput : undefined
}

export interface AcpToolCallInput {
  callId: string
  name: string
  /** The arguments the tool received; sent as ACP `rawInput` (the tool's raw input). */
  args: unknown
  /** Session workspace; relative paths are resolved against it. */
  cwd: string
}

/**
 * The `tool_call` that opens a card. Without a presentation it is the generic card: title =
 * tool name, kind `other`. The presentation's `rawInput` summary (e.g. `offset 10, limit 20`)
 * leads the card's content, since ACP's own `rawInput` carries the arguments object.
 */
export function toAcpToolCall(
  input: AcpToolCallInput,
  presentation: ToolCallPresentation | undefined,
): AcpToolCall {
  const call: AcpToolCall = {
    sessionUpdate: 'tool_call',
    toolCallId: input.callId,
    title: presentation?.title || input.name,
    name: input.name,
    kind: presentation?.kind ?? 'other',
    status: 'in_progress',
    // The arguments as the model sent them, every long string clipped: a write's content is
    // the whole file, which a card must not carry.
    rawInput: clipLongStrings(input.args),
  }
  const content: ToolCallContent[] = []
  const summary = summaryText(presentation?.rawInput)
  if (summary !== undefined) content.push(toAcpTextContent(summary))
  if (presentation?.content) content.push(...toAcpContent(presentation.content, input.cwd))
  if (content.length > 0) call.content = content
  if (presentation?.locations && presentation.locations.length > 0) {
    call.locations = toAcpLocations(presentation.locations, input.cwd)
  }
  return call
}

export interface AcpToolResultInput {
  callId: string
  content: readonly ToolContent[]
  isError: boolean
  /** The failure's name and code, and its sentence for the person, when the error gave them. */
  error?: ToolErrorInfo
  cwd: string
}

/**
 * The `tool_call_update` that closes a card: `completed` or `failed`; title, content and
 * locations from the result presentation when it gives them (its content, when it has a list,
 * even an empty one), else the result text as content.
 */
export function toAcpToolCallUpdate(
  input: AcpToolResultInput,
  presentation: ToolResultPresentation | undefined,
): AcpToolCallUpdate {
  const update: AcpToolCallUpdate = {
    sessionUpdate: 'tool_call_update',
    toolCallId: input.callId,
    status: input.isError ? 'failed' : 'completed',
  }
  if (presentation?.title) update.title = presentation.title
  // A result card's content, even none (a command that printed nothing), is the card's: the
  // result text is the model's and shows only for a tool with no result card.
  const content =
    presentation?.content !== undefined
      ? toAcpContent(presentation.content, input.cwd)
      : toAcpResultContent(input.content)
  if (content.length > 0) update.content = content
  if (presentation?.locations && presentation.locations.length > 0) {
    update.locations = toAcpLocations(presentation.locations, input.cwd)
  }
  // A failure's code (FS_NOT_OBSERVED, TOOL_INVALID_ARGUMENTS, …) for clients that act on it;
  // its sentence for the person, when it has one, is the card's content (the model's stays its).
  if (input.isError && input.error) {
    const { forPerson, ...error } = input.error
    update.rawOutput = { error }
    if (forPerson !== undefined) update.content = [toAcpTextContent(forPerson)]
  }
  return update
}

/** Closes a card whose tool never reported a result (the turn was cancelled or failed). */
export function toAcpUnfinishedToolCall(callId: string, reason: TurnEndReason): AcpToolCallUpdate {
  const text =
    reason === 'cancelled' ? 'Cancelled before the tool finished.' : 'The tool did not finish.'
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: callId,
    status: 'failed',
    content: [toAcpTextContent(text)],
  }
}

/** error → end_turn: the turn's failure is shown as an agent message chunk just before. */
export function toAcpStopReason(reason: TurnEndReason): StopReason {
  switch (reason) {
    case 'completed':
      return 'end_turn'
    case 'cancelled':
      return 'cancelled'
    case 'max-steps':
      return 'max_turn_requests'
    case 'error':
      return 'end_turn'
  }
}
