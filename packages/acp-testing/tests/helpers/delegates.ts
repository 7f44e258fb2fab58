// For the task tests over a chat-completions server on 127.0.0.1 (./model-server): telling a
// delegate's request from its parent's by the system prompt, the messages a request holds, and
// the harness options that run the file tools and the task tool with llm-openai against it.
import type { AcpHarnessOptions } from '../../src/harness-stack'
import type { ModelServer, WireRequest } from './model-server'

/** A delegate's request: its system prompt says it is a delegate. */
export const isDelegate = (request: WireRequest) =>
  request.messages[0]?.role === 'system' &&
  request.messages[0].content!.includes('You are a delegate')
export const toolResults = (request: WireRequest) =>
  request.messages.filter((m) => m.role === 'tool')
export const nonSystem = (request: WireRequest) =>
  request.messages.filter((m) => m.role !== 'system')

/**
 * The file tools and the task tool, the model llm-openai against `server`, at 1 and 10 USD per
 * million tokens in and out.
 */
export function taskOptions(server: ModelServer): AcpHarnessOptions {
  const prices = {
    currency: 'USD',
    inputPerMillion: 1,
    cachedInputPerMillion: 0,
    outputPerMillion: 10,
  }
  return {
    withFs: true,
    withTask: true,
    openai: {
      baseUrl: server.url,
      model: 'local-model',
      apiKey: 'test-key',
      contextWindow: 65_536,
      maxRetries: 0,
      prices,
    },
  }
}
