// The tool half of a step: run the model's tool calls through ctx.tools.execute. Consecutive
// calls that may run beside others (reads, and calls of a concurrency group: see ./lanes) run
// side by side, each lane at most its limit at a time; any other call (one that changes
// something, runs a command, reaches the network or touches nothing but the agent) runs
// alone, in the order the model sent it. Results go back in the
// calls' order whatever order they finish in. Each call is logged as `tool/call` before and `tool/result` after, and
// in between `tool/asked` (a person is asked about it) and `tool/started` (it runs) as the
// tool layer reports them, and its live output as `tool/output`, delivered but not logged; a side-by-side group logs its calls first, in order, and each card
// opens when its call starts. An output larger than `maxOutputChars` is cut with a note (see
// ../context/elide). Arguments arrive as JSON text and are parsed here; a text that is not
// JSON never reaches the tool and becomes an error result the model can read and correct: a
// ToolError TOOL_INVALID_JSON (the tools package lists the code), shaped as the registry shapes
// its own refusals.
// Not here: argument validation against the schema (the registry does it).
import type { LlmMessage, LlmToolCall } from '@deepseek-ai/dsh-llm'
import { ToolError, clipLongStrings } from '@deepseek-ai/dsh-tools'
import type {
  ToolAgent,
  ToolCallAccess,
  ToolCallPresentation,
  ToolExecution,
  ToolExecutionResult,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import { cutOutput } from '../context/elide'
import { toolMessageOf } from './images'
import { laneOf } from './lanes'
import type { Lane } from './lanes'
import type { SessionEvent } from '../types'

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
  /** How the call is judged (its effect); never rejects. Without it, every call runs alone. */
  access?(exec: ToolExecution): Promise<ToolCallAccess | undefined>
  /** Settles once the session's own tools have arrived; `undefined` when none are awaited. */
  settled?(session: string): Promise<void> | undefined
}

export interface ToolCallContext {
  tools: ToolRunner
  agent: ToolAgent
  turnId: string
  signal: AbortSignal
  append(event: SessionEvent): void
  /** The most characters one output may take in the conversation; none: no limit. */
  maxOutputChars?: number
  /** Delivers a live event (a call's output) without logging it. */
  notify(event: SessionEvent): void
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

/** A call with its arguments parsed and its card presented, ready to log and run. */
interface PreparedCall {
  call: LlmToolCall
  parsed: ParsedArguments
  args: unknown
  opening: ToolCallPresentation | undefined
  /** Set when the call may run beside others; none: it runs alone. */
  lane: Lane | undefined
}

/**
 * Runs the calls and returns one tool message per call, in the calls' order. Calls not started
 * because the turn was cancelled get a message saying so, so the history stays a valid
 * conversation: every tool call of an assistant message has its result.
 */
export async function runToolCalls(
  context: ToolCallContext,
  calls: readonly LlmToolCall[],
): Promise<LlmMessage[]> {
  const prepared = await Promise.all(calls.map((call) => prepareCall(context, call)))
  const messages: LlmMessage[] = []
  let index = 0
  while (index < prepared.length) {
    let end = index + 1
    if (prepared[index]!.lane) while (end < prepared.length && prepared[end]!.lane) end += 1
    const group = prepared.slice(index, end)
    messages.push(
      ...(await (group.length === 1
        ? runAlone(context, group[0]!)
        : runSideBySide(context, group))),
    )
    index = end
  }
  return messages
}

function cancelledMessage(call: LlmToolCall): LlmMessage {
  const content = 'Error: the turn was cancelled before this tool ran.'
  return { role: 'tool', toolCallId: call.id, content, isError: true }
}

async function runAlone(context: ToolCallContext, prepared: PreparedCall): Promise<LlmMessage[]> {
  if (context.signal.aborted) return [cancelledMessage(prepared.call)]
  logCall(context, prepared)
  return [await runLogged(context, prepared)]
}

/**
 * Calls that may run beside others: logged in order, then each lane's calls started in order,
 * at most the lane's limit at a time (the lanes do not wait for one another).
 */
async function runSideBySide(
  context: ToolCallContext,
  group: readonly PreparedCall[],
): Promise<LlmMessage[]> {
  if (context.signal.aborted) return group.map((prepared) => cancelledMessage(prepared.call))
  for (const prepared of group) logCall(context, prepared)
  const messages: LlmMessage[] = new Array(group.length)
  const lanes = new Map<string, { limit: number; positions: number[] }>()
  group.forEach(({ lane }, position) => {
    const queue = lanes.get(lane!.key) ?? { limit: lane!.limit, positions: [] }
    queue.positions.push(position)
    lanes.set(lane!.key, queue)
  })
  const workers = [...lanes.values()].flatMap(({ limit, positions }) => {
    const worker = async () => {
      for (let position = positions.shift(); position !== undefined; position = positions.shift()) {
        const prepared = group[position]!
        messages[position] = context.signal.aborted
          ? finishCall(context, prepared, cancelledResult(prepared.call))
          : await runLogged(context, prepared)
      }
    }
    return Array.from({ length: Math.min(limit, positions.length) }, worker)
  })
  await Promise.all(workers)
  return messages
}

async function prepareCall(context: ToolCallContext, call: LlmToolCall): Promise<PreparedCall> {
  const parsed = parseToolArguments(call.arguments)
  const args = parsed.ok ? parsed.value : call.arguments
  // The cards are presented once, here, with the session workspace (and the session, whose own
  // tools are found too): the log carries them to a UI and to a store, which replays them as
  // they were. Their long strings are clipped here, so neither a UI nor the store ever holds a
  // whole file for a card.
  const view = viewOf(context)
  const opening = clipped(context.tools.presentCall?.(call.name, args, view))
  const { agent } = context
  const exec = { callId: call.id, name: call.name, arguments: args, session: agent.session, agent }
  const access = context.tools.access?.bind(context.tools)
  const lane = parsed.ok ? await laneOf(access, exec, opening?.kind) : undefined
  return { call, parsed, args, opening, lane }
}

function logCall(context: ToolCallContext, { call, args, opening }: PreparedCall): void {
  context.append({
    type: 'tool/call',
    turnId: context.turnId,
    callId: call.id,
    name: call.name,
    arguments: args,
    ...(opening !== undefined && { presentation: opening }),
  })
}

async function runLogged(context: ToolCallContext, prepared: PreparedCall): Promise<LlmMessage> {
  const { call, parsed } = prepared
  const result = parsed.ok
    ? await executeSafely(context, call, parsed.value)
    : invalidJsonResult(call, parsed.message)
  return finishCall(context, prepared, result)
}

/** Logs the result (its output cut to the budget) and returns the call's tool message. */
function finishCall(
  context: ToolCallContext,
  prepared: PreparedCall,
  raw: ToolExecutionResult,
): LlmMessage {
  const { call, args } = prepared
  const result = fitResult(raw, context.maxOutputChars)
  const view = viewOf(context)
  const closing = clipped(context.tools.presentResult?.(call.name, args, raw, view))
  context.append({
    type: 'tool/result',
    turnId: context.turnId,
    callId: call.id,
    name: call.name,
    content: result.content,
    isError: result.isError,
    ...(result.error ? { error: result.error } : {}),
    ...(result.details !== undefined ? { details: result.details } : {}),
    ...(result.images !== undefined && { images: result.images }),
    ...(closing !== undefined && { presentation: closing }),
  })
  return toolMessageOf(call.id, result)
}

/** The result with its text cut to `maxChars` (one text block then), when it is longer. */
function fitResult(result: ToolExecutionResult, maxChars: number | undefined): ToolExecutionResult {
  if (maxChars === undefined) return result
  const text = result.content.map((block) => block.text).join('\n')
  const cut = cutOutput(text, maxChars)
  return cut === text ? result : { ...result, content: [{ type: 'text', text: cut }] }
}

function cancelledResult(call: LlmToolCall): ToolExecutionResult {
  const text = 'Error: the turn was cancelled before this tool ran.'
  return { callId: call.id, content: [{ type: 'text', text }], isError: true }
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
    session: context.agent.session,
    agent: context.agent,
    signal: context.signal,
    report: (progress) => {
      const callId = call.id
      if (progress.type === 'output') {
        context.notify({ type: 'tool/output', turnId, callId, text: progress.text })
      } else if (progress.type === 'status') {
        context.notify({ type: 'tool/status', turnId, callId, text: progress.text })
      } else if (progress.type === 'content') {
        context.notify({ type: 'tool/content', turnId, callId, text: progress.text })
      } else if (progress.type === 'asked') {
        context.append({ type: 'tool/asked', turnId, callId, preview: clipped(progress.preview) })
      } else {
        context.append({ type: 'tool/started', turnId, callId })
      }
    },
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

/** The cards' view: the session's workspace, and its root session, whose tools it sees. */
function viewOf(context: ToolCallContext): ToolPresentationView {
  const { session } = context.agent
  return { cwd: session.header.cwd, session: session.scope.id }
}

/** A card as the log keeps it: every long string clipped (a diff of a huge file stays small). */
function clipped<T>(presentation: T): T {
  return presentation === undefined ? presentation : clipLongStrings(presentation)
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
