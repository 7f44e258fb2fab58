// What the adapter knows of models: DeepSeek's published context windows and prices (the
// source is named in behaviour.md), the key's environment chain, and the server's own list from
// `GET {baseUrl}/models`. Pure apart from `fetchModelIds`, which never rejects: a server that
// does not answer simply has no list.
import type { LlmModelMove, LlmPrices } from '@deepseek-ai/dsh-llm'

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

/** DeepSeek's peak-hour prices (USD per million tokens) of `deepseek-v4-flash`. */
export const DEEPSEEK_FLASH_PRICES: LlmPrices = {
  currency: 'USD',
  cachedInputPerMillion: 0.006,
  inputPerMillion: 0.3,
  outputPerMillion: 1.2,
}

/** DeepSeek's peak-hour prices (USD per million tokens) of `deepseek-v4-pro`. */
export const DEEPSEEK_PRO_PRICES: LlmPrices = {
  currency: 'USD',
  cachedInputPerMillion: 0.044,
  inputPerMillion: 1.32,
  outputPerMillion: 3.96,
}

interface KnownModel {
  contextWindow: number
  maxOutputTokens?: number
  prices?: LlmPrices
}

/** DeepSeek's V4 window (1M tokens) and longest answer (384K), as its servers count them. */
const DEEPSEEK_V4_WINDOW = 1_048_576
const DEEPSEEK_V4_OUTPUT = 393_216

/** DeepSeek's current models: their window, longest answer and prices. */
export const KNOWN_MODELS: Readonly<Record<string, KnownModel>> = {
  'deepseek-v4-flash': {
    contextWindow: DEEPSEEK_V4_WINDOW,
    maxOutputTokens: DEEPSEEK_V4_OUTPUT,
    prices: DEEPSEEK_FLASH_PRICES,
  },
  'deepseek-v4-pro': {
    contextWindow: DEEPSEEK_V4_WINDOW,
    maxOutputTokens: DEEPSEEK_V4_OUTPUT,
    prices: DEEPSEEK_PRO_PRICES,
  },
}

/** The models DeepSeek's own host serves. */
export const DEEPSEEK_MODELS = ['deepseek-v4-flash', 'deepseek-v4-pro'] as const

/** DeepSeek's retired names (gone since 2026-07-24 15:59 UTC) and the model that serves them. */
export const RETIRED_MODELS: Readonly<Record<string, string>> = {
  'deepseek-chat': 'deepseek-v4-flash',
  'deepseek-reasoner': 'deepseek-v4-flash',
}

/** The move of a retired name to its successor; undefined for a current name. */
export function retiredModelMove(model: string): LlmModelMove | undefined {
  const to = RETIRED_MODELS[model]
  if (to === undefined) return undefined
  return {
    from: model,
    to,
    notice: `DeepSeek retired the model name ${model} on 2026-07-24; dsh sends its successor, ${to}, instead (choose the model with --model or the model option).`,
  }
}

/** The name a request is sent with: a retired name's successor, else the name itself. */
export function currentModelName(model: string): string {
  return RETIRED_MODELS[model] ?? model
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
