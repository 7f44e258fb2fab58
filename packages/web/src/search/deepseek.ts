// DeepSeek's Search API, with the key of a DeepSeek account: `POST <base>/v1/tools/search`
// with `{ query, count }` and a Bearer key; each result has a title, url, snippet and a longer
// summary (the snippet is used, the summary when there is none).
import { WebError } from '../errors'
import type { WebSearchOptions, WebSearchProvider, WebSearchResult, WebJsonClient } from '../types'
import { recordOf, toResult } from './clip'

export const DEEPSEEK_SEARCH_BASE_URL = 'https://api.deepseek.com'

/** DeepSeek's limit on `count`. */
const MAX_COUNT = 50

export class DeepSeekSearch implements WebSearchProvider {
  readonly name = 'DeepSeek Search'

  constructor(
    private readonly web: Pick<WebJsonClient, 'json'>,
    private readonly apiKey: string,
    private readonly baseUrl: string = DEEPSEEK_SEARCH_BASE_URL,
  ) {}

  async search(query: string, options: WebSearchOptions): Promise<WebSearchResult[]> {
    const base = this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`
    const answer = await this.web.json({
      url: new URL('v1/tools/search', base).href,
      method: 'POST',
      headers: { authorization: `Bearer ${this.apiKey}` },
      body: { query, count: Math.min(options.limit, MAX_COUNT) },
      ...(options.signal && { signal: options.signal }),
    })
    const results = recordOf(answer)?.results
    if (!Array.isArray(results)) {
      throw new WebError('WEB_SEARCH_FAILED', `${this.name} answered without a results list.`)
    }
    return results
      .map((item) => {
        const fields = recordOf(item) ?? {}
        const snippet =
          typeof fields.snippet === 'string' && fields.snippet !== ''
            ? fields.snippet
            : fields.summary
        return toResult(fields.title, fields.url, snippet)
      })
      .filter((result) => result !== undefined)
      .slice(0, options.limit)
  }
}
