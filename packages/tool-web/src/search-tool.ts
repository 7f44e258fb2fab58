// The `web_search` tool: up to MAX_QUERIES queries at once through ctx.web's provider, run
// side by side. A query that fails says so in its section; when every query fails the call
// fails with the first error.
import { defineTool } from '@deepseek-ai/dsh-tools'
import type WebService from '@deepseek-ai/dsh-web'
import { searchAccess } from './access'
import { queriesOf, searchInput } from './input'
import { formatSearch, presentSearchCall, presentSearchResult } from './search-present'
import type { SearchDetails } from './search-present'

export interface SearchToolOptions {
  /** Results per query. */
  limit: number
}

export function createSearchTool(
  web: Pick<WebService, 'search' | 'searchProvider'>,
  options: SearchToolOptions,
) {
  return defineTool<typeof searchInput, SearchDetails>({
    name: 'web_search',
    description:
      'Search the web. Returns, per query, the title, URL and a snippet of each result; read a page with web_fetch.',
    input: searchInput,
    execute: async (args, exec) => {
      const queries = queriesOf(args)
      const signal = exec.signal
      const settled = await Promise.allSettled(
        queries.map((query) =>
          web.search(query, { limit: options.limit, ...(signal && { signal }) }),
        ),
      )
      if (settled.every((outcome) => outcome.status === 'rejected')) {
        throw (settled[0] as PromiseRejectedResult).reason
      }
      const details: SearchDetails = {
        provider: web.searchProvider?.name ?? 'web search',
        queries: settled.map((outcome, index) => ({
          query: queries[index]!,
          results: outcome.status === 'fulfilled' ? outcome.value : [],
          ...(outcome.status === 'rejected' && { error: messageOf(outcome.reason) }),
        })),
      }
      return { content: formatSearch(details), details }
    },
    presentCall: presentSearchCall,
    presentResult: presentSearchResult,
    access: searchAccess,
  })
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
