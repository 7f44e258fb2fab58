// The tool half of a step: run the model's tool calls one after another, in the order the
// model sent them, through ctx.tools.execute. Each call is logged as `tool/call` before and
// `tool/result` after, and in between `tool/asked` (a person is asked about it) and
// `tool/started` (it runs) as the tool layer reports them. Arguments arrive as JSON text and are parsed here; a text that is not
// JSON never reaches the tool and becomes an error result the model can read and correct: a
// ToolError TOOL_INVALID_JSON (the tools package lists the code), shaped as the registry shapes
// its own refusals.
// Not here: argument validation against the schema (the registry does it).
import type { LlmMessage, LlmToolCall } from '@deepseek-ai/dsh-llm'
import { ToolError } from '@deepseek-ai/dsh-tools'
import type {
  ToolAgent,
  ToolCallPresentation,
  ToolExecution,
  ToolExecutionResult,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import type { SessionEvent } from './types'

/** What the loop needs of ctx.tools: running a call, and its cards (optional, never throw). */
export interface ToolRunner {
  execute(exec: ToolExecution): Promise<ToolExecutionResult>
  presentCall?(
    name: string,
    args: unknown,
    view?: ToolPresentationView,
  ): ToolCallPresentation | undefined
  presentResult?(
    name: string,
    args: unknown,
    result: ToolResultView,
    view?: ToolPresentationView,
  ): ToolResultPresentation | undefined
  /** Settles once the session's own tools have arrived; `undefined` when none are awaited. */
  settled?(session: string): Promise<void> | undefined
}

export interface ToolCallContext {
  tools: ToolRunner
  agent: ToolAgent
  turnId: string
  signal: AbortSignal
  append(event: SessionEvent): void
}

type ParsedArguments = { ok: true; value: unknown } | { ok: false; message: string }

/** Parses a tool call's JSON text; an empty text means no arguments (`{}`). */
function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { ok: true, value: {} }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Runs the calls in order and returns one tool message per call. Calls not started because
 * the turn was cancelled get a message saying so (no events), so the history stays a valid
 * conversation: every tool call of an assistant message has its result.
 */
export async function runToolCalls(
  context: ToolCallContext,
  calls: readonly LlmToolCall[],
): Promise<LlmMessage[]> {
  const messages: LlmMessage[] = []
  for (const call of calls) {
    if (context.signal.aborted) {
      const content = 'Error: the turn was cancelled before this tool ran.'
      messages.push({ role: 'tool', toolCallId: call.id, content, isError: true })
      continue
    }
    const result = await runToolCall(context, call)
    const content = result.content.map((block) => block.text).join('\n')
    messages.push({ role: 'tool', toolCallId: call.id, content, isError: result.isError })
  }
  return messages
}

async function runToolCall(
  context: ToolCallContext,
  call: LlmToolCall,
): Promise<ToolExecutionResult> {
  const { turnId, tools } = context
  const parsed = parseToolArguments(call.arguments)
  const args = parsed.ok ? parsed.value : call.arguments
  // The cards are presented once, here, with the session workspace (and the session, whose own
  // tools are found too): the log carries them to a
  // UI and to a store, which replays them as they were.
  const { cwd, id } = context.agent.session.header
  const view = { cwd, session: id }
  const opening = tools.presentCall?.(call.name, args, view)
  context.append({
    type: 'tool/call',
    turnId,
    callId: call.id,
    name: call.name,
    arguments: args,
    ...(opening !== undefined && { presentation: opening }),
  })
  const result = parsed.ok
    ? await executeSafely(context, call, parsed.value)
    : invalidJsonResult(call, parsed.message)
  const closing = tools.presentResult?.(call.name, args, result, view)
  context.append({
    type: 'tool/result',
    turnId,
    callId: call.id,
    name: call.name,
    content: result.content,
    isError: result.isError,
    ...(result.error ? { error: result.error } : {}),
    ...(result.details !== undefined ? { details: result.details } : {}),
    ...(closing !== undefined && { presentation: closing }),
  })
  return result
}

async function executeSafely(
  context: ToolCallContext,
  call: LlmToolCall,
  args: unknown,
): Promise<ToolExecutionResult> {
  const { turnId } = context
  const exec: ToolExecution = {
    callId: call.id,
    name: call.name,
    arguments: args,
    agent: context.agent,
    signal: context.signal,
    report: (progress) =>
      context.append(
        progress.type === 'asked'
          ? { type: 'tool/asked', turnId, callId: call.id, preview: progress.preview }
          : { type: 'tool/started', turnId, callId: call.id },
      ),
  }
  try {
    return await context.tools.execute(exec)
  } catch (error) {
    // ctx.tools.execute is specified never to reject; should a registry break that, the
    // failure still goes back to the model as a result instead of ending the turn.
    const message = error instanceof Error ? error.message : String(error)
    return {
      callId: call.id,
      content: [{ type: 'text', text: `Error: ${message}` }],
      isError: true,
    }
  }
}

function invalidJsonResult(call: LlmToolCall, problem: string): ToolExecutionResult {
  const error = new ToolError(
    'TOOL_INVALID_JSON',
    `the arguments for "${call.name}" are not valid JSON: ${problem}. Send a JSON object.`,
  )
  return {
    callId: call.id,
    content: [{ type: 'text', text: `Error: ${error.message}` }],
    isError: true,
    error: { name: error.name, code: error.code },
  }
}
