// The config of the OpenAI-compatible model: one zod schema with DeepSeek defaults, the
// plugin's `static Config`, which Cordis validates when the plugin loads. The API key's
// environment fallback is resolved by the service at construction (see index.ts, models.ts),
// not here, so the schema stays pure.
import { z } from 'zod'
import { ModelFactsSchema, PricesSchema } from './models-file'

export const DEFAULT_BASE_URL = 'https://api.deepseek.com'
/**
 * DeepSeek's own name for its current model (V4.1-Flash since 2026-09-10, per its *Models &
 * Pricing* page as of 2026-11-15; checked again 2026-12-05).
 */
export const DEFAULT_MODEL = 'deepseek-flash'

export const Config = z
  .object({
    /** The API root; `/chat/completions` is appended. */
    baseUrl: z.url({ protocol: /^https?$/ }).default(DEFAULT_BASE_URL),
    /** The model used when a request names none. */
    model: z.string().min(1).default(DEFAULT_MODEL),
    /**
     * The bearer token; defaults to DSH_API_KEY, else DEEPSEEK_API_KEY, else OPENAI_API_KEY at
     * construction. With none, requests go without an Authorization header.
     */
    apiKey: z.string().min(1).optional(),
    /**
     * Asked for the key before each request and model list, so a key that arrives after the
     * plugin loaded (one the person stored by logging in) is used without a restart; its
     * answer wins over `apiKey`, undefined falls back to it.
     */
    resolveApiKey: z
      .custom<() => string | undefined>((value) => typeof value === 'function', {
        message: 'resolveApiKey must be a function returning the key or undefined',
      })
      .optional(),
    /** Tokens a request may hold, for every model; default: the model's known window. */
    contextWindow: z.number().int().min(1024).optional(),
    /** What a token costs; default: DeepSeek's prices for its models, none for others. */
    prices: PricesSchema.optional(),
    /**
     * Facts about models by id (a person's models file): each field overrides the built-in
     * table's for that model. `contextWindow`, `prices` and `imageInput` above still win.
     */
    models: z.record(z.string().min(1), ModelFactsSchema).optional(),
    /** The configured `model` takes images (a local server's model no table knows). */
    imageInput: z.boolean().default(false),
    /** Extra attempts after a 429, a 5xx, a network error or a timeout. */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /** The first backoff wait; doubled on each retry. */
    retryBaseMs: z.number().int().nonnegative().default(500),
    /** The cap on any single wait, a server's `Retry-After` included. */
    maxRetryDelayMs: z.number().int().nonnegative().default(30_000),
    /** Per attempt: the longest wait for response headers, and then between stream chunks. */
    timeoutMs: z.number().int().positive().optional(),
  })
  .prefault({})

/** The config as a host passes it: every field optional, and the config itself too. */
export type OpenAiLlmConfig = z.input<typeof Config>
