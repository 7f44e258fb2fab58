// The client side of the tests: the model loaded through Cordis, a request, and helpers
// that drain a stream into its events or its error.
import { Context } from 'cordis'
import OpenAiLlm from '@deepseek-ai/dsh-llm-openai'
import type { OpenAiLlmConfig } from '@deepseek-ai/dsh-llm-openai'
import type { LlmError, LlmRequest, LlmStreamEvent } from '@deepseek-ai/dsh-llm'

export async function model(config: OpenAiLlmConfig): Promise<OpenAiLlm> {
  const ctx = new Context()
  await ctx.plugin(OpenAiLlm, { apiKey: 'test-key', retryBaseMs: 1, ...config })
  return ctx.llm as OpenAiLlm
}

export const request = (extra: Partial<LlmRequest> = {}): LlmRequest => ({
  system: 'be brief',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  ...extra,
})

export async function collect(stream: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

export async function failure(stream: AsyncIterable<LlmStreamEvent>): Promise<LlmError> {
  try {
    await collect(stream)
  } catch (error) {
    return error as LlmError
  }
  throw new Error('the stream succeeded')
}
