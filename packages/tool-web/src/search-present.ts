// The web_search card: the query as its title (several joined by ` · `), kind `search`; once
// done, the sources found, as links a UI can open. What the model reads: per query, numbered
// results with title, URL and snippet. Pure and total.
import type {
  ToolCallPresentation,
  ToolPresentationContent,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import type { WebSearchResult } from '@deepseek-ai/dsh-web'
import { queriesOf } from './input'
import type { SearchArgs } from './input'

/** Sources a card lists at most. */
export const CARD_SOURCES = 20

/** `details` of web_search: each query with its results, or the error it failed with. */
export interface SearchDetails {
  provider: string
  queries: { query: string; results: WebSearchResult[]; error?: string }[]
}

export function searchTitle(args: SearchArgs): string {
  return queriesOf(args).join(' · ')
}

export function presentSearchCall(args: SearchArgs): ToolCallPresentation {
  return { title: searchTitle(args), kind: 'search' }
}

export function presentSearchResult(
  args: SearchArgs,
  result: ToolResultView<SearchDetails>,
): ToolResultPresentation | undefined {
  const queries = result.details?.queries
  if (!Array.isArray(queries)) return undefined
  const seen = new Set<string>()
  const links: ToolPresentationContent[] = []
  for (const { results } of queries) {
    for (const source of results) {
      if (seen.has(source.url) || links.length >= CARD_SOURCES) continue
      seen.add(source.url)
      links.push({ type: 'link', uri: source.url, name: source.title })
    }
  }
  if (links.length === 0)
    return { title: searchTitle(args), content: [{ type: 'text', text: 'No results.' }] }
  return { title: searchTitle(args), content: links }
}

export function formatSearch(details: SearchDetails): string {
  return details.queries
    .map(({ query, results, error }) => {
      const head = `## ${query}`
      if (error !== undefined) return `${head}\nThe search failed: ${error}`
      if (results.length === 0) return `${head}\nNo results.`
      const lines = results.map(
        (source, index) =>
          `${index + 1}. ${source.title}\n   ${source.url}${source.snippet === '' ? '' : `\n   ${source.snippet}`}`,
      )
      return `${head}\n${lines.join('\n')}`
    })
    .join('\n\n')
}
