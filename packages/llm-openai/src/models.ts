// What the adapter knows of models: DeepSeek's published windows, prices (peak and off-peak),
// images and thinking (the source is named in behaviour.md), its retired names, the key's
// environment chain, and the server's own list from `GET {baseUrl}/models`. Pure apart from
// `fetchModelIds`, which never rejects: a server that does not answer simply has no list.
import type { LlmModelMove, LlmPeakWindow, LlmPrices } from '@deepseek-ai/dsh-llm'

/** The environment variables the key is read from, first set wins. */
export const API_KEY_ENVS = ['DSH_API_KEY', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY'] as const

/** The first non-empty key of API_KEY_ENVS in `env`. */
export function apiKeyFromEnv(env: Record<string, string | undefined>): string | undefined {
  for (const name of API_KEY_ENVS) {
    const value = env[name]?.trim()
    if (value) return value
  }
  return undefined
}

/**
 * DeepSeek's peak hours, in UTC: Monday to Friday, 01:00–04:00 and 06:00–10:00 (09:00–12:00 and
 * 14:00–18:00 in Beijing). Outside them its off-peak rates, half the peak ones, apply. DeepSeek
 * names no holidays, so none are kept. (DeepSeek's *Models & Pricing*, 2026-11-15.)
 */
export const DEEPSEEK_PEAK_WINDOWS: LlmPeakWindow[] = [
  { days: [1, 2, 3, 4, 5], from: '01:00', to: '04:00' },
  { days: [1, 2, 3, 4, 5], from: '06:00', to: '10:00' },
]

/** DeepSeek's prices (USD per million tokens) of `deepseek-flash`: peak, then off-peak. */
export const DEEPSEEK_FLASH_PRICES: LlmPrices = {
  currency: 'USD',
  cachedInputPerMillion: 0.006,
  inputPerMillion: 0.3,
  outputPerMillion: 1.2,
  offPeak: { cachedInputPerMillion: 0.003, inputPerMillion: 0.15, outputPerMillion: 0.6 },
  peak: DEEPSEEK_PEAK_WINDOWS,
}

/** DeepSeek's prices (USD per million tokens) of `deepseek-v4-pro`: peak, then off-peak. */
export const DEEPSEEK_PRO_PRICES: LlmPrices = {
  currency: 'USD',
  cachedInputPerMillion: 0.044,
  inputPerMillion: 1.32,
  outputPerMillion: 3.96,
  offPeak: { cachedInputPerMillion: 0.022, inputPerMillion: 0.66, outputPerMillion: 1.98 },
  peak: DEEPSEEK_PEAK_WINDOWS,
}

/**
 * How a model is told how hard to think: `deepseek`, DeepSeek's switch and effort (`thinking`,
 * `reasoning_effort` low/high/max); `effort`, the OpenAI field alone (`reasoning_effort`);
 * `none`, nothing (a model with one way of answering).
 */
export type ThinkingStyle = 'deepseek' | 'effort' | 'none'

/** What is known of a model; every field may be missing (then the provider's default holds). */
export interface ModelFacts {
  contextWindow?: number
  maxOutputTokens?: number
  prices?: LlmPrices
  imageInput?: boolean
  thinking?: ThinkingStyle
}

/** DeepSeek's V4 window (1M tokens) and longest answer (384K), as its servers count them. */
const DEEPSEEK_V4_WINDOW = 1_048_576
const DEEPSEEK_V4_OUTPUT = 393_216

/**
 * DeepSeek's current models (its *Models & Pricing* page, 2026-11-15): `deepseek-flash`
 * (V4.1-Flash, since 2026-09-10) reads images, `deepseek-v4-pro` does not; both think by
 * DeepSeek's switch. A person's models file adds to it and overrides it (./models-file).
 */
export const KNOWN_MODELS: Readonly<Record<string, ModelFacts>> = {
  'deepseek-flash': {
    contextWindow: DEEPSEEK_V4_WINDOW,
    maxOutputTokens: DEEPSEEK_V4_OUTPUT,
    prices: DEEPSEEK_FLASH_PRICES,
    imageInput: true,
    thinking: 'deepseek',
  },
  'deepseek-v4-pro': {
    contextWindow: DEEPSEEK_V4_WINDOW,
    maxOutputTokens: DEEPSEEK_V4_OUTPUT,
    prices: DEEPSEEK_PRO_PRICES,
    imageInput: false,
    thinking: 'deepseek',
  },
}

/** The models DeepSeek's own host serves, when it gives no list. */
export const DEEPSEEK_MODELS = ['deepseek-flash', 'deepseek-v4-pro'] as const

/**
 * DeepSeek's names that another model now serves, each with its successor and when it moved:
 * `deepseek-chat` and `deepseek-reasoner` were retired on 2026-07-24; `deepseek-v4-flash` and
 * `deepseek-v4-flash-vision-exp` became aliases served by V4.1-Flash on 2026-09-10, so dsh
 * sends the model's own name.
 */
export const RETIRED_MODELS: Readonly<Record<string, { to: string; since: string }>> = {
  'deepseek-chat': { to: 'deepseek-flash', since: '2026-07-24' },
  'deepseek-reasoner': { to: 'deepseek-flash', since: '2026-07-24' },
  'deepseek-v4-flash': { to: 'deepseek-flash', since: '2026-09-10' },
  'deepseek-v4-flash-vision-exp': { to: 'deepseek-flash', since: '2026-09-10' },
}

/** The move of a retired name to its successor; undefined for a current name. */
export function retiredModelMove(model: string): LlmModelMove | undefined {
  const move = RETIRED_MODELS[model]
  if (move === undefined) return undefined
  return {
    from: model,
    to: move.to,
    notice: `DeepSeek serves ${model} with ${move.to} since ${move.since}; dsh sends ${move.to} instead (choose the model with --model or the model option).`,
  }
}

/** The name a request is sent with: a retired name's successor, else the name itself. */
export function currentModelName(model: string): string {
  return RETIRED_MODELS[model]?.to ?? model
}

export function isDeepSeekHost(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.deepseek.com'
  } catch {
    return false
  }
}

/**
 * The model list: the server's ids when it gave some, else DeepSeek's models on DeepSeek's
 * host, else none; the configured model first when it is not among them.
 */
export function modelList(baseUrl: string, model: string, ids: string[] | undefined): string[] {
  const base = ids ?? (isDeepSeekHost(baseUrl) ? [...DEEPSEEK_MODELS] : [])
  return base.includes(model) ? base : [model, ...base]
}

/** `{baseUrl}/models`, whatever trailing slashes the base URL has. */
export function modelsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/models`
}

/**
 * The ids of `GET /models` (`{ data: [{ id }] }`), or undefined when it does not answer so;
 * `onEntry` sees each entry with an id (its other fields are the server's model metadata).
 */
export async function fetchModelIds(
  baseUrl: string,
  apiKey: string | undefined,
  timeoutMs = 5000,
  onEntry?: (id: string, entry: object) => void,
): Promise<string[] | undefined> {
  try {
    const response = await fetch(modelsUrl(baseUrl), {
      headers: { accept: 'application/json', ...authorization(apiKey) },
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!response.ok) return undefined
    const body = (await response.json()) as { data?: unknown }
    if (!Array.isArray(body.data)) return undefined
    const ids = body.data.flatMap((entry: unknown) => {
      const id = (entry as { id?: unknown } | null)?.id
      if (typeof id !== 'string' || id === '') return []
      onEntry?.(id, entry as object)
      return [id]
    })
    return ids.length > 0 ? ids : undefined
  } catch {
    // No list from this server (unreachable, not JSON, timed out): the caller falls back.
    return undefined
  }
}

/** The Authorization header for a key; none without one (keyless local servers). */
export function authorization(apiKey: string | undefined): Record<string, string> {
  return apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }
}
