// The OpenAI-compatible chat model behind ctx.llm: streaming Chat Completions over global
// `fetch`, DeepSeek by default. This file is the Cordis face only; the wire format
// (wire.ts), SSE parsing (sse.ts), delta assembly (stream.ts), retries (http.ts) and body
// reading (read.ts) live apart so each can be tested alone.
import type { Context } from 'cordis'
import { Llm, LlmError } from '@deepseek-ai/dsh-llm'
import type { LlmRequest, LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import { API_KEY_ENV, OpenAiLlmConfigSchema } from './config'
import type { OpenAiLlmConfig, OpenAiLlmSettings } from './config'
import { openChatStream } from './http'
import { readChatStream } from './read'
import { chatCompletionsUrl, toWireRequest } from './wire'

export default class OpenAiLlm extends Llm {
  static Config = OpenAiLlmConfigSchema

  private readonly settings: OpenAiLlmSettings
  private readonly apiKey: string | undefined

  constructor(ctx: Context, config: OpenAiLlmConfig = {}) {
    super(ctx)
    this.settings = OpenAiLlmConfigSchema.parse(config)
    const fromEnv = process.env[API_KEY_ENV]
    this.apiKey = this.settings.apiKey ?? (fromEnv === '' ? undefined : fromEnv)
  }

  /** The model a request without `model` uses. */
  get model(): string {
    return this.settings.model
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

export { OpenAiLlmConfigSchema, DEFAULT_BASE_URL, DEFAULT_MODEL, API_KEY_ENV } from './config'
export type { OpenAiLlmConfig, OpenAiLlmSettings } from './config'
export { SseParser } from './sse'
export { ChatStreamAssembler, toFinishReason } from './stream'
export { toWireRequest, chatCompletionsUrl } from './wire'
export type { WireRequest, WireMessage, WireTool, WireChunk } from './wire'
