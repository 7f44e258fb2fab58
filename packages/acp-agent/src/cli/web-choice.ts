// The web tools' options for the `dsh-acp` bin, from its flags and the environment: the
// private-address switch, and the search provider (SearXNG by URL, or DeepSeek's Search API
// with DSH_WEB_SEARCH_KEY, else DEEPSEEK_API_KEY). Pure: the environment is passed in.
import type { DshWebOptions } from '../app-stack'

/** The web flags under DshWebOptions' keys (./cli-schema); DeepSeek's search without its key. */
export interface WebFlags {
  allowPrivate?: boolean
  searxngUrl?: string
  deepseek?: { baseUrl?: string }
}

export type WebChoice = { ok: true; web: DshWebOptions } | { ok: false; message: string }

export function chooseWeb(flags: WebFlags, env: Record<string, string | undefined>): WebChoice {
  const { deepseek, ...web } = flags
  if (deepseek === undefined) return { ok: true, web }
  const apiKey = nonEmpty(env.DSH_WEB_SEARCH_KEY) ?? nonEmpty(env.DEEPSEEK_API_KEY)
  if (apiKey === undefined) {
    return {
      ok: false,
      message:
        '--web-search-deepseek needs a DeepSeek API key: set DEEPSEEK_API_KEY (or DSH_WEB_SEARCH_KEY).',
    }
  }
  return { ok: true, web: { ...web, deepseek: { apiKey, ...deepseek } } }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}
