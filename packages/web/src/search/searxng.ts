// SearXNG, self-hosted and keyless, through its JSON API: `GET <instance>/search?q=…&format=json`
// (the instance must list `json` under `search.formats` in its settings.yml, or it answers 403).
import { WebError } from '../errors'
import type { WebSearchOptions, WebSearchProvider, WebSearchResult, WebJsonClient } from '../types'
import { recordOf, toResult } from './clip'

export class SearxngSearch implements WebSearchProvider {
  readonly name: string

  constructor(
    private readonly web: Pick<WebJsonClient, 'json'>,
    private readonly instance: string,
  ) {
    this.name = `SearXNG at ${new URL(instance).origin}`
  }

  async search(query: string, options: WebSearchOptions): Promise<WebSearchResult[]> {
    const url = new URL('search', this.instance.endsWith('/') ? this.instance : `${this.instance}/`)
    url.searchParams.set('q', query)
    url.searchParams.set('format', 'json')
    const answer = await this.web
      .json({ url: url.href, ...(options.signal && { signal: options.signal }) })
      .catch((error: unknown) => {
        if (error instanceof WebError && error.message.includes(' 403')) {
          throw new WebError(
            'WEB_SEARCH_FAILED',
            `${this.name} refused the JSON API (403): add "json" to search.formats in its settings.yml.`,
          )
        }
        throw error
      })
    const results = recordOf(answer)?.results
    if (!Array.isArray(results)) {
      throw new WebError('WEB_SEARCH_FAILED', `${this.name} answered without a results list.`)
    }
    return results
      .map((item) => {
        const fields = recordOf(item) ?? {}
        return toResult(fields.title, fields.url, fields.content)
      })
      .filter((result) => result !== undefined)
      .slice(0, options.limit)
  }
}
