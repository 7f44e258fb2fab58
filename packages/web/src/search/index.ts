// web/search: the search providers behind ctx.web. With `searxng.url` it adds a SearXNG
// instance; with `deepseek.apiKey`, DeepSeek's Search API. Loaded with neither, it adds nothing
// (and tool-web then offers no web_search). A function plugin of its own, named `web-search`:
// its providers go with it.
import type { Context } from 'cordis'
import { z } from 'zod'
import type {} from '../index' // for its augmentation: ctx.web
import { DEEPSEEK_SEARCH_BASE_URL, DeepSeekSearch } from './deepseek'
import { SearxngSearch } from './searxng'
import { configOf } from '@deepseek-ai/dsh-tools/config'

export const name = 'web-search'

export const inject = ['web']

const httpUrl = z.url({ protocol: /^https?$/ })

export const Config = z
  .object({
    searxng: z
      .object({ url: httpUrl.describe('The SearXNG instance, e.g. http://localhost:8888.') })
      .optional(),
    deepseek: z
      .object({
        apiKey: z.string().min(1).describe("A DeepSeek API key (the model's own works)."),
        baseUrl: httpUrl.default(DEEPSEEK_SEARCH_BASE_URL),
      })
      .optional(),
  })
  .prefault({})

export type WebSearchConfig = z.input<typeof Config>

export function apply(ctx: Context, config: WebSearchConfig): void {
  // Cordis validated `config` against Config when it loaded the plugin: defaults are in.
  const options = configOf(Config, config)
  if (options.searxng !== undefined) {
    ctx.web.addSearchProvider(new SearxngSearch(ctx.web, options.searxng.url))
  }
  if (options.deepseek !== undefined) {
    const { apiKey, baseUrl } = options.deepseek
    ctx.web.addSearchProvider(new DeepSeekSearch(ctx.web, apiKey, baseUrl))
  }
}

export { DEEPSEEK_SEARCH_BASE_URL, DeepSeekSearch } from './deepseek'
export { SearxngSearch } from './searxng'
export { SNIPPET_CHARS } from './clip'
