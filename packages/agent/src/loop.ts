// The tool loop of one turn: ask the model, stream its text, run its tool calls in order, feed
// the results back, and repeat until the model calls no tool (completed), the step limit is
// reached (max-steps), the turn is cancelled (cancelled) or the model fails (error).
// A step is one model request. The loop appends to the conversation history as it goes and
// always leaves it a valid conversation. Not here: turn bookkeeping (busy, turn/start,
// turn/end), which the Agent owns.
import type { Llm, LlmMessage, LlmToolSchema } from '@deepseek-ai/dsh-llm'
import type { ToolAgent } from '@deepseek-ai/dsh-tools'
import { errorMessage, streamModelResponse } from './model-stream'
import type { ModelResponse } from './model-stream'
import { runToolCalls } from './tool-calls'
import type { ToolRunner } from './tool-calls'
import type { SessionEvent, TurnEndReason } from './types'

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

export interface TurnSpec {
  services: LoopServices
  agent: ToolAgent
  turnId: string
  /** The conversation so far, the user's message of this turn last; the loop appends to it. */
  history: LlmMessage[]
  signal: AbortSignal
  maxSteps: number
  model?: string
  systemPrompt?: string
  append(event: SessionEvent): void
}

export interface TurnOutcome {
  reason: TurnEndReason
  error?: string
}

export async function runTurn(spec: TurnSpec): Promise<TurnOutcome> {
  for (let step = 0; step < spec.maxSteps; step++) {
    if (spec.signal.aborted) return { reason: 'cancelled' }
    const response = await requestModel(spec)
    recordAssistant(spec.history, response)
    if (response.outcome === 'cancelled') return { reason: 'cancelled' }
    if (response.outcome === 'error') return { reason: 'error', error: response.error }
    if (response.toolCalls.length === 0) return { reason: 'completed' }
    const { services, agent, turnId, signal, append } = spec
    const context = { tools: services.tools, agent, turnId, signal, append }
    spec.history.push(...(await runToolCalls(context, response.toolCalls)))
    if (signal.aborted) return { reason: 'cancelled' }
  }
  return { reason: 'max-steps' }
}

async function requestModel(spec: TurnSpec): Promise<ModelResponse> {
  const { services, signal, turnId } = spec
  const session = spec.agent.session.header.id
  // The session's own tools still arriving (servers connecting) are waited for, so the model
  // is offered them; a wait ends with the cancel too.
  const arriving = services.tools.settled?.(session)
  if (arriving !== undefined) await untilAborted(arriving, signal)
  if (signal.aborted) return { text: '', reasoning: '', toolCalls: [], outcome: 'cancelled' }
  let prompt: { system: string; tools: LlmToolSchema[] }
  try {
    prompt = services.systemPrompt.assemble(spec.systemPrompt, session)
  } catch (error) {
    const message = `The system prompt could not be assembled: ${errorMessage(error)}`
    return { text: '', reasoning: '', toolCalls: [], outcome: 'error', error: message }
  }
  const request = {
    ...(spec.model !== undefined ? { model: spec.model } : {}),
    system: prompt.system,
    messages: [...spec.history],
    tools: prompt.tools,
    signal,
  }
  return streamModelResponse(services.llm, request, (kind, text) =>
    spec.append({ type: 'assistant/chunk', turnId, kind, text }),
  )
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
