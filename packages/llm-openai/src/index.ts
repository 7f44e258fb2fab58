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
import type { ModelFacts, ThinkingStyle } from './models'
import { readChatStream } from './read'
import { thinkingStyleOf, thoughtLevelsOf } from './thinking'
import { chatCompletionsUrl, toWireRequest } from './wire'
import { configOf } from '@deepseek-ai/dsh-tools/config'

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
    this.settings = configOf(Config, config)
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
   * What is known of `model`: the built-in table (./models), each field overridden by the
   * `models` config (a person's models file).
   */
  facts(model: string): ModelFacts {
    return { ...KNOWN_MODELS[model], ...this.settings.models?.[model] }
  }

  /**
   * The configured window wins, then the model's facts, then DEFAULT_CONTEXT_WINDOW; the same
   * for prices. Image input: the `imageInput` config for the configured model, else the
   * server's list (once it answered), else the facts, else the table of families
   * (./image-models), else text only.
   */
  override modelInfo(model?: string): LlmModelInfo {
    const id = currentModelName(model ?? this.settings.model)
    const facts = this.facts(id)
    const prices = this.settings.prices ?? facts.prices
    return {
      id,
      contextWindow: this.settings.contextWindow ?? facts.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      ...(prices !== undefined && { prices }),
      ...(facts.maxOutputTokens !== undefined && { maxOutputTokens: facts.maxOutputTokens }),
      ...(this.takesImages(id, facts) && { imageInput: true }),
    }
  }

  /** The levels of the model's thinking style (./thinking); none for a model that has one way. */
  override thoughtLevels(model?: string): LlmThoughtLevels | undefined {
    return thoughtLevelsOf(this.thinkingStyle(currentModelName(model ?? this.settings.model)))
  }

  /** How `model` (a current name) is told to think. */
  thinkingStyle(model: string): ThinkingStyle {
    return thinkingStyleOf(model, this.facts(model), this.settings.baseUrl)
  }

  /** A DeepSeek name another model now serves (`deepseek-chat`, `deepseek-v4-flash`), and that model. */
  override moved(model?: string): LlmModelMove | undefined {
    return retiredModelMove(model ?? this.settings.model)
  }

  private takesImages(model: string, facts: ModelFacts): boolean {
    if (model === currentModelName(this.settings.model) && this.settings.imageInput) return true
    return this.listedImages.get(model) ?? facts.imageInput ?? knownImageInput(model) ?? false
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    return this.run(request)
  }

  private async *run(request: LlmRequest): AsyncGenerator<LlmStreamEvent> {
    const { settings } = this
    const open = await openChatStream({
      url: chatCompletionsUrl(settings.baseUrl),
      apiKey: this.apiKey,
      body: JSON.stringify(toWireRequest(request, settings.model, (id) => this.thinkingStyle(id))),
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
  DEEPSEEK_PEAK_WINDOWS,
  DEEPSEEK_PRO_PRICES,
  KNOWN_MODELS,
  RETIRED_MODELS,
  apiKeyFromEnv,
  currentModelName,
  isDeepSeekHost,
  modelList,
  retiredModelMove,
} from './models'
export type { ModelFacts, ThinkingStyle } from './models'
export { defaultModelsFile, parseModelsFile, readModelsFile } from './models-file'
export { IMAGE_INPUT_RULES, knownImageInput, listedImageInput } from './image-models'
export type { ImageInputRule } from './image-models'
export { imageDataUrl } from './wire-images'
export { returnsReasoning, thinkingStyleOf, thoughtLevelsOf, wireThinking } from './thinking'
export type { WireThinking } from './thinking'
