// The OpenAI-compatible chat model behind ctx.llm: streaming Chat Completions over global
// `fetch`, DeepSeek by default, any compatible server (with or without a key) by its base URL.
// This file is the Cordis face only; the wire format (wire.ts), SSE parsing (sse.ts), delta
// assembly (stream.ts), retries (http.ts), body reading (read.ts) and what is known of models
// (models.ts) live apart so each can be tested alone.
import type { Context } from 'cordis'
import type { z } from 'zod'
import { DEFAULT_CONTEXT_WINDOW, Llm } from '@deepseek-ai/dsh-llm'
import type {
  LlmModelInfo,
  LlmModelMove,
  LlmRequest,
  LlmStreamEvent,
  LlmThoughtLevels,
} from '@deepseek-ai/dsh-llm'
import { Config } from './config'
import type { OpenAiLlmConfig } from './config'
import { openChatStream } from './http'
import { knownImageInput, listedImageInput } from './image-models'
import {
  KNOWN_MODELS,
  apiKeyFromEnv,
  currentModelName,
  fetchModelIds,
  modelList,
  retiredModelMove,
} from './models'
import { readChatStream } from './read'
import { thoughtLevelsOf } from './thinking'
import { chatCompletionsUrl, toWireRequest } from './wire'

export default class OpenAiLlm extends Llm {
  static Config = Config

  private readonly settings: z.output<typeof Config>
  /** The key the plugin was given or found in the environment when it loaded. */
  private readonly loadedKey: string | undefined
  private listed: Promise<string[]> | undefined
  /** What the server's model list said of each model's image input, once it answered. */
  private readonly listedImages = new Map<string, boolean>()

  constructor(ctx: Context, config: OpenAiLlmConfig) {
    super(ctx)
    // Cordis validated `config` against Config when the plugin loaded: this is its output.
    this.settings = config as z.output<typeof Config>
    this.loadedKey = this.settings.apiKey ?? apiKeyFromEnv(process.env)
  }

  /** The key of the next request: `resolveApiKey`'s answer, else the one found at load. */
  private get apiKey(): string | undefined {
    return this.settings.resolveApiKey?.() ?? this.loadedKey
  }

  /** The configured model, a retired name given as its successor. */
  override get defaultModel(): string {
    return currentModelName(this.settings.model)
  }

  /**
   * The server's `GET /models` list when it answers, else DeepSeek's models on DeepSeek's host,
   * else the configured model; the configured model is always in it. Asked once.
   */
  override models(): Promise<string[]> {
    const { baseUrl } = this.settings
    const onEntry = (id: string, entry: object) => {
      const images = listedImageInput(entry)
      if (images !== undefined) this.listedImages.set(id, images)
    }
    this.listed ??= fetchModelIds(baseUrl, this.apiKey, undefined, onEntry).then((ids) =>
      modelList(baseUrl, this.defaultModel, ids),
    )
    return this.listed
  }

  /**
   * The configured window wins, then the known one, then DEFAULT_CONTEXT_WINDOW. Image input:
   * the `imageInput` config for the configured model, else the server's list (once it
   * answered), else the table (./image-models), else text only.
   */
  override modelInfo(model?: string): LlmModelInfo {
    const id = currentModelName(model ?? this.settings.model)
    const known = KNOWN_MODELS[id]
    const prices = this.settings.prices ?? known?.prices
    return {
      id,
      contextWindow: this.settings.contextWindow ?? known?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      ...(prices !== undefined && { prices }),
      ...(known?.maxOutputTokens !== undefined && { maxOutputTokens: known.maxOutputTokens }),
      ...(this.takesImages(id) && { imageInput: true }),
    }
  }

  /** DeepSeek's levels (off, high, max) for its models; `reasoning_effort`'s for the rest. */
  override thoughtLevels(model?: string): LlmThoughtLevels {
    return thoughtLevelsOf(currentModelName(model ?? this.settings.model))
  }

  /** A retired DeepSeek name (`deepseek-chat`, `deepseek-reasoner`) and its successor. */
  override moved(model?: string): LlmModelMove | undefined {
    return retiredModelMove(model ?? this.settings.model)
  }

  private takesImages(model: string): boolean {
    if (model === currentModelName(this.settings.model) && this.settings.imageInput) return true
    return this.listedImages.get(model) ?? knownImageInput(model) ?? false
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    return this.run(request)
  }

  private async *run(request: LlmRequest): AsyncGenerator<LlmStreamEvent> {
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
export {
  API_KEY_ENVS,
  DEEPSEEK_FLASH_PRICES,
  DEEPSEEK_MODELS,
  DEEPSEEK_PRO_PRICES,
  KNOWN_MODELS,
  RETIRED_MODELS,
  apiKeyFromEnv,
  currentModelName,
  isDeepSeekHost,
  modelList,
  retiredModelMove,
} from './models'
export { IMAGE_INPUT_RULES, knownImageInput, listedImageInput } from './image-models'
export type { ImageInputRule } from './image-models'
export { imageDataUrl } from './wire-images'
export { thoughtLevelsOf, wireThinking } from './thinking'
export type { WireThinking } from './thinking'
