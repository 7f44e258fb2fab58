// tool-web: the `web_fetch` and `web_search` tools over ctx.web, and their prompt section.
// web_search is registered only when ctx.web has a search provider when this plugin loads
// (load the providers first). A function plugin: what it registers goes away when it is
// disposed. Each call is judged by the permission layer as reaching the network (`access`).
import type { Context } from 'cordis'
import { z } from 'zod'
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import { configOf } from '@deepseek-ai/dsh-tools' // and its augmentation: ctx.tools
import type {} from '@deepseek-ai/dsh-web' // for its augmentation: ctx.web
import { createFetchTool } from './fetch-tool'
import { webPrompt } from './prompt'
import { createSearchTool } from './search-tool'

export const name = 'tool-web'

export const inject = ['tools', 'systemPrompt', 'web']

export const Config = z
  .object({
    maxChars: z
      .number()
      .int()
      .min(1000)
      .default(40_000)
      .describe("Characters of a page's text the model gets at most."),
    resultsPerQuery: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(8)
      .describe('Search results per query.'),
  })
  .prefault({})

export type ToolWebConfig = z.input<typeof Config>

export function apply(ctx: Context, config: ToolWebConfig): void {
  const options = configOf(Config, config)
  ctx.tools.register(createFetchTool(ctx.web, { maxChars: options.maxChars }))
  const search = ctx.web.searchProvider !== undefined
  if (search) ctx.tools.register(createSearchTool(ctx.web, { limit: options.resultsPerQuery }))
  ctx.systemPrompt.add({ name: 'tool-web/web', text: webPrompt(search) })
}

export { CARD_CHARS, presentFetchCall, presentFetchResult } from './fetch-present'
export type { FetchDetails } from './fetch-present'
export { CARD_SOURCES, presentSearchCall, presentSearchResult } from './search-present'
export type { SearchDetails } from './search-present'
export { fetchAccess, searchAccess } from './access'
export { MAX_QUERIES, fetchInput, searchInput } from './input'
export type { FetchArgs, SearchArgs } from './input'
