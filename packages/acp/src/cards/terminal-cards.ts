// Terminal cards: how a call that runs a command (its presentation has `terminal`) shows its
// live output. A client that advertises `_meta.terminal_output` in its capabilities (Zed's
// convention) gets a terminal: the opening `tool_call` carries a `terminal` content block and
// `_meta.terminal_info`, each piece of output goes out as `_meta.terminal_output`, and the end as
// `_meta.terminal_exit`. Any other client gets the output's tail in a console block, replaced as
// it grows. ACP's client-side `terminal/*` methods are not used: the command runs here.
// Output reaches the terminal with its colours only (the tools package's terminalText): no
// command may set the person's clipboard or title, or clear their view; a console block gets
// it plain. Pure: no I/O, no connection.
import type { ToolCallContent } from '@agentclientprotocol/sdk'
import { fencedBlock, plainTerminalText, terminalText } from '@deepseek-ai/dsh-tools'
import type { ToolTerminalResult } from '@deepseek-ai/dsh-tools'
import { toAcpTextContent } from '../wire/to-acp'
import type { AcpToolCall, AcpToolCallUpdate } from '../wire/to-acp'

/** How much of the output a client without terminals sees while the command runs. */
export const ACP_LIVE_TAIL_CHARS = 16 * 1024

/** The client shows terminals (`clientCapabilities._meta.terminal_output: true`). */
export function offersTerminalOutput(meta: unknown): boolean {
  return typeof meta === 'object' && meta !== null && 'terminal_output' in meta
    ? (meta as { terminal_output: unknown }).terminal_output === true
    : false
}

/** The opening card of a terminal call, for a client that shows terminals. */
export function toAcpTerminalCall(call: AcpToolCall, cwd: string): AcpToolCall {
  const terminalId = call.toolCallId
  return {
    ...call,
    content: [...(call.content ?? []), { type: 'terminal', terminalId }],
    _meta: { ...call._meta, terminal_info: { terminal_id: terminalId, cwd } },
  }
}

/** A piece of output, for a client that shows terminals. */
export function toAcpTerminalOutput(wireId: string, data: string): AcpToolCallUpdate {
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: wireId,
    _meta: { terminal_output: { terminal_id: wireId, data: terminalText(data) } },
  }
}

/** The output so far, for any other client: the card's lead, then the tail as a console block. */
export function toAcpConsoleTail(
  wireId: string,
  lead: readonly ToolCallContent[],
  tail: string,
): AcpToolCallUpdate {
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: wireId,
    content: [...lead, toAcpTextContent(fencedBlock(plainTerminalText(tail), 'console'))],
  }
}

/** The last `max` characters of `text`, never starting inside a surrogate pair. */
export function lastChars(text: string, max = ACP_LIVE_TAIL_CHARS): string {
  if (text.length <= max) return text
  let start = text.length - max
  const code = text.charCodeAt(start)
  if (code >= 0xdc00 && code <= 0xdfff) start++
  return text.slice(start)
}

/**
 * The closing updates of a terminal call for a client that shows terminals: the final output
 * first when none went out live (a stored session replayed), then the result with the card's
 * terminal kept as its content and `_meta.terminal_exit`.
 */
export function toAcpTerminalEnd(
  result: AcpToolCallUpdate,
  lead: readonly ToolCallContent[],
  end: ToolTerminalResult,
  streamed: boolean,
): AcpToolCallUpdate[] {
  const wireId = result.toolCallId
  const exit = { terminal_id: wireId, exit_code: end.exitCode, signal: end.signal }
  const closing: AcpToolCallUpdate = {
    ...result,
    content: [...lead, { type: 'terminal', terminalId: wireId }],
    _meta: { ...result._meta, terminal_exit: exit },
  }
  const output = !streamed && end.output.length > 0 ? [toAcpTerminalOutput(wireId, end.output)] : []
  return [...output, closing]
}
