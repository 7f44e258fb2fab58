// The OpenAI-compatible chat model behind ctx.llm: streaming Chat Completions over global
// `fetch`, DeepSeek by default. This file is the Cordis face only; the wire format
// (wire.ts), SSE parsing (sse.ts), delta assembly (stream.ts), retries (http.ts) and body
// reading (read.ts) live apart so each can be tested alone.
import type { Context } from 'cordis'
import type { z } from 'zod'
import { Llm, LlmError } from '@deepseek-ai/dsh-llm'
import type { LlmRequest, LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import { API_KEY_ENV, Config } from './config'
import type { OpenAiLlmConfig } from './config'
import { openChatStream } from './http'
import { readChatStream } from './read'
import { chatCompletionsUrl, toWireRequest } from './wire'

export default class OpenAiLlm extends Llm {
  static Config = Config

  private readonly settings: z.output<typeof Config>
  private readonly apiKey: string | undefined

  constructor(ctx: Context, config: OpenAiLlmConfig) {
    super(ctx)
    // Cordis validated `config` against Config when the plugin loaded: this is its output.
    this.settings = config as z.output<typeof Config>
    const fromEnv = process.env[API_KEY_ENV]
    this.apiKey = this.settings.apiKey ?? (fromEnv === '' ? undefined : fromEnv)
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    return this.run(request)
  }

  private async *run(request: LlmRequest): AsyncGenerator<LlmStreamEvent> {
    if (this.apiKey === undefined) {
      throw new LlmError('LLM_NO_KEY', `no API key: set ${API_KEY_ENV} or pass apiKey`)
    }
    const { settings } = this
    const open = await openChatStream({
      url: chatCompletionsUrl(settings.baseUrl),
      apiKey: this.apiKey,
      body: JSON.stringify(toWireRequest(request, settings.model)),
      maxRetries: settings.maxRetries,
      retryBaseMs: settings.retryBaseMs,
      maxRetryDelayMs: settings.maxRetryDelayMs,
      timeoutMs: settings.timeoutMs,
      signal: request.signal,
    })
    yield* readChatStream(open, { signal: request.signal, timeoutMs: settings.timeoutMs })
  }
}

export { Config, DEFAULT_BASE_URL, DEFAULT_MODEL } from './config'
export type { OpenAiLlmConfig } from './config'
