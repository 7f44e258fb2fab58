// Test doubles at the model edge only: a scripted model that records each request, and a raw
// model that plays hand-written stream events (malformed tool arguments, failures, a stream
// that never ends) which the scripted model cannot produce.
import { Llm, ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmRequest, LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import type { Context } from 'cordis'

export interface RecordsRequests {
  readonly requests: LlmRequest[]
}

export class RecordingLlm extends ScriptedLlm implements RecordsRequests {
  readonly requests: LlmRequest[] = []

  override stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    this.requests.push({ ...request, messages: [...request.messages] })
    return super.stream(request)
  }
}

/** One response of the raw model: events, a failure, or events then a stream that hangs. */
export type RawResponse = LlmStreamEvent[] | Error | { thenHang: LlmStreamEvent[] }

export class RawLlm extends Llm implements RecordsRequests {
  readonly requests: LlmRequest[] = []
  private readonly responses: RawResponse[]

  constructor(ctx: Context, config: { responses: RawResponse[] }) {
    super(ctx)
    this.responses = config.responses
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    const response = this.responses[this.requests.length]
    this.requests.push({ ...request, messages: [...request.messages] })
    return play(response)
  }
}

async function* play(response: RawResponse | undefined): AsyncGenerator<LlmStreamEvent> {
  if (response === undefined) throw new Error('RawLlm has no response left')
  if (response instanceof Error) throw response
  if (Array.isArray(response)) {
    yield* response
    return
  }
  yield* response.thenHang
  await new Promise(() => {})
}

export function toolCall(id: string, name: string, args: string): LlmStreamEvent {
  return { type: 'tool-call', id, name, arguments: args }
}

export const finishStop: LlmStreamEvent = { type: 'finish', reason: 'stop' }
export const finishTools: LlmStreamEvent = { type: 'finish', reason: 'tool-calls' }
