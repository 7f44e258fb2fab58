// The tool loop of one turn: ask the model, stream its text, run its tool calls, feed the
// results back, and repeat until the model calls no tool (completed), the step limit is
// reached (max-steps), the turn is cancelled (cancelled) or the model fails (error).
// A step is one model request; the next one goes once the calls' cards were written out (the
// session's `written` channel). Before each, the notes waiting (agent.note) join the
// conversation as user messages, and the session's context (../context/context) makes the
// request fit the window, compacting when it must; after each, the usage is logged; a request
// the server still refuses as too long is compacted harder and sent once more. The loop
// appends to the conversation history as it goes and always leaves it a valid conversation.
// Not here: turn bookkeeping (busy, turn/start, turn/end), which the Agent owns.
import type { Llm, LlmMessage, LlmModelInfo, LlmToolSchema } from '@deepseek-ai/dsh-llm'
import type { ToolAgent } from '@deepseek-ai/dsh-tools'
import type { SessionContext } from '../context/context'
import { errorMessage, streamModelResponse } from './model-stream'
import type { ModelResponse } from './model-stream'
import { imagesFor } from './images'
import { runToolCalls } from './tool-calls'
import type { ToolRunner } from './tool-calls'
import type { SessionEvent, TurnEndReason } from '../types'

/** What the loop needs of ctx.systemPrompt. */
export interface PromptAssembler {
  /** With `session`, that session's own sections and tools too. */
  assemble(extra?: string, session?: string): { system: string; tools: LlmToolSchema[] }
}

/** The services a turn uses, looked up when the turn runs. */
export interface LoopServices {
  llm: Llm
  tools: ToolRunner
  systemPrompt: PromptAssembler
}

/** What every turn of a session uses: fixed for the session's life (the Agent builds it once). */
export interface TurnSession {
  agent: ToolAgent
  /** The conversation so far; a turn appends to it. */
  history: LlmMessage[]
  maxSteps: number
  /** Extra prose appended to the assembled system prompt. */
  systemPrompt?: string
  /** The session's context window and its compaction. */
  context: SessionContext
  append(event: SessionEvent): void
  /** Delivers a live event without logging it. */
  notify(event: SessionEvent): void
  /** The notes waiting for the next model request (`agent.note`), taken. */
  takeNotes?(): string[]
}

/** What changes from one turn to the next. */
export interface TurnSpec {
  /** The services, as they are when the turn starts. */
  services: LoopServices
  turnId: string
  signal: AbortSignal
  model?: string
  /** The session's thought level, sent with each request. */
  thoughtLevel?: string
  /** Runs before each step after the first (the context sources' notes, ../context/context-sources). */
  beforeStep?(): Promise<void>
}

/** One turn of one session, as the loop's steps read it. */
type Turn = TurnSession & TurnSpec

export interface TurnOutcome {
  reason: TurnEndReason
  error?: string
}

type Prompt = { system: string; tools: LlmToolSchema[] }

export async function runTurn(session: TurnSession, turn: TurnSpec): Promise<TurnOutcome> {
  const spec: Turn = { ...session, ...turn }
  for (let step = 0; step < spec.maxSteps; step++) {
    if (spec.signal.aborted) return { reason: 'cancelled' }
    if (step > 0 && spec.beforeStep !== undefined) await spec.beforeStep()
    // A child session is offered its root session's tools (its parent's MCP servers).
    const scope = spec.agent.session.scope.id
    // The session's own tools still arriving (servers connecting) are waited for, so the model
    // is offered them; a wait ends with the cancel too.
    const arriving = spec.services.tools.settled?.(scope)
    if (arriving !== undefined) await untilAborted(arriving, spec.signal)
    if (spec.signal.aborted) return { reason: 'cancelled' }
    let prompt: Prompt
    try {
      prompt = spec.services.systemPrompt.assemble(spec.systemPrompt, scope)
    } catch (error) {
      return {
        reason: 'error',
        error: `The system prompt could not be assembled: ${errorMessage(error)}`,
      }
    }
    prompt = offeredTo(prompt, spec.services.llm.modelInfo(spec.model))
    for (const text of spec.takeNotes?.() ?? []) {
      spec.append({ type: 'session/note', turnId: spec.turnId, text })
      spec.history.push({ role: 'user', content: text })
    }
    const response = await requestModel(spec, prompt)
    recordAssistant(spec.history, response)
    if (response.outcome === 'cancelled') return { reason: 'cancelled' }
    if (response.outcome === 'error') return { reason: 'error', error: response.error }
    if (response.toolCalls.length === 0) return { reason: 'completed' }
    const { services, agent, turnId, signal, append, notify, context } = spec
    const budget = context.outputBudget(spec.history, prompt, response.toolCalls.length)
    const calls = {
      tools: services.tools,
      agent,
      turnId,
      signal,
      append,
      notify,
      maxOutputChars: budget,
    }
    spec.history.push(...(await runToolCalls(calls, response.toolCalls)))
    // The calls' cards reach the person before their results reach the model.
    const written = agent.session.scope.channels.written?.()
    if (written !== undefined) await untilAborted(written, signal)
    if (signal.aborted) return { reason: 'cancelled' }
  }
  return { reason: 'max-steps' }
}

/**
 * One model request that fits the window: compacted first when needed, and once more, harder,
 * when the server refuses it as too long anyway (its counting differs from the estimate).
 */
async function requestModel(spec: Turn, prompt: Prompt): Promise<ModelResponse> {
  const compaction = {
    history: spec.history,
    prompt,
    llm: spec.services.llm,
    ...(spec.model !== undefined && { model: spec.model }),
    signal: spec.signal,
    turnId: spec.turnId,
    append: spec.append,
  }
  const ready = await spec.context.prepare(compaction)
  if (!ready.fits) return tooLong(spec, ready.used)
  let response = await sendRequest(spec, prompt)
  if (
    response.outcome === 'error' &&
    response.errorCode === 'LLM_CONTEXT_TOO_LONG' &&
    !response.text
  ) {
    if (spec.signal.aborted) return { ...response, outcome: 'cancelled' }
    const retry = await spec.context.prepare(compaction, 'refused')
    if (!retry.fits) return tooLong(spec, retry.used)
    response = await sendRequest(spec, prompt)
    if (response.outcome === 'error' && response.errorCode === 'LLM_CONTEXT_TOO_LONG') {
      return tooLong(spec, retry.used, response.error)
    }
  }
  return response
}

async function sendRequest(spec: Turn, prompt: Prompt): Promise<ModelResponse> {
  const { services, signal, turnId } = spec
  const request = {
    ...(spec.model !== undefined ? { model: spec.model } : {}),
    ...(spec.thoughtLevel !== undefined ? { thoughtLevel: spec.thoughtLevel } : {}),
    system: prompt.system,
    messages: imagesFor([...spec.history], services.llm.modelInfo(spec.model)),
    tools: prompt.tools,
    signal,
  }
  // The request pays the rates in force as it is sent (a model priced by the clock).
  const sent = new Date()
  const response = await streamModelResponse(services.llm, request, (kind, text) =>
    spec.append({ type: 'assistant/chunk', turnId, kind, text }),
  )
  if (response.outcome === 'done') {
    const turn = { id: turnId, sent }
    spec.context.answered(request, answerOf(response), response.usage, turn, spec.append)
  }
  return response
}

/** The turn's end when even a compacted request does not fit: what happened, what to do. */
function tooLong(spec: Turn, used: number, refusal?: string): ModelResponse {
  const size = spec.context.size
  const why = refusal === undefined ? '' : ` The server said: ${refusal}`
  const error =
    `The conversation no longer fits the model's context window (about ${used} of ${size} tokens), even after compacting it.${why} ` +
    'Send a shorter message, start a new session, or choose a model with a larger window (the model option, or --context-window if the server allows more).'
  return { text: '', reasoning: '', toolCalls: [], outcome: 'error', error }
}

function answerOf(response: ModelResponse): LlmMessage | undefined {
  if (!response.text && !response.reasoning && response.toolCalls.length === 0) return undefined
  return {
    role: 'assistant',
    content: response.text,
    ...(response.toolCalls.length > 0 && { toolCalls: response.toolCalls }),
  }
}

function untilAborted(wait: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
    wait.then(done, done)
  })
}

/**
 * Adds the response to the history. Tool calls are kept only from a complete response, since
 * only those calls get results; a cut-off response keeps the text the user already saw.
 */
function recordAssistant(history: LlmMessage[], response: ModelResponse): void {
  const complete = response.outcome === 'done'
  const toolCalls = complete ? response.toolCalls : []
  if (!response.text && !response.reasoning && toolCalls.length === 0) return
  history.push({
    role: 'assistant',
    content: response.text,
    ...(response.reasoning ? { reasoning: response.reasoning } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  })
}

/** The prompt with the tools a model can use: those whose results carry images need image input. */
function offeredTo(prompt: Prompt, info: LlmModelInfo): Prompt {
  if (info.imageInput === true || !prompt.tools.some((tool) => tool.returnsImages)) return prompt
  return { ...prompt, tools: prompt.tools.filter((tool) => tool.returnsImages !== true) }
}
