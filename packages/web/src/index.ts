// ctx.web: the web seam. Fetching a page (http(s), same-origin redirects, caps, text only, HTML
// as Markdown) through the private-address guard, and searching through whichever provider is
// registered (./search, the `web-search` plugin, holds SearXNG and DeepSeek's). Providers and
// tools make their own requests through `json` and `fetch`, so the proxy settings and the guard hold for all.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type { z } from 'zod'
import { Config } from './config'
import type { WebConfig } from './config'
import { WebError } from './errors'
import { fetchPage, parseWebUrl } from './fetch-page'
import { checkHostLiteral, systemResolver } from './guard'
import { WebHttp } from './http'
import { proxyEnvFrom } from './proxy'
import type {
  WebFetchOptions,
  WebJsonRequest,
  WebPage,
  WebSearchOptions,
  WebSearchProvider,
  WebSearchResult,
} from './types'
import { configOf } from '@deepseek-ai/dsh-tools/config'

declare module 'cordis' {
  interface Context {
    web: WebService
  }
}

export default class WebService extends Service {
  static Config = Config

  private readonly settings: z.output<typeof Config>
  private readonly http: WebHttp
  private readonly providers: WebSearchProvider[] = []

  constructor(ctx: Context, config: WebConfig) {
    super(ctx, 'web')
    // Cordis validated `config` against Config when the service loaded: defaults are in.
    this.settings = configOf(Config, config)
    this.http = new WebHttp({
      resolver: this.settings.resolver ?? systemResolver,
      allowPrivate: this.settings.allowPrivate,
      proxy: proxyEnvFrom(this.settings.proxyEnv ?? process.env),
      userAgent: this.settings.userAgent,
    })
    ctx.effect(() => () => void this.http.close(), 'web connections')
  }

  /** Private targets are allowed (`allowPrivate`). */
  get allowsPrivate(): boolean {
    return this.settings.allowPrivate
  }

  /**
   * `url` parsed as a fetch would take it, refused as a fetch would be before resolving
   * anything (not http(s), a private literal address, `localhost`): a check before asking.
   */
  checkUrl(url: string): URL {
    const parsed = parseWebUrl(url)
    if (!this.settings.allowPrivate) checkHostLiteral(parsed.hostname)
    return parsed
  }

  /** Fetches `url` as text; rejects with a WebError saying what was wrong. */
  fetch(url: string, options?: WebFetchOptions): Promise<WebPage> {
    const { maxBytes, timeoutMs, maxRedirects, markdownMemoryMb } = this.settings
    const limits = { maxBytes, timeoutMs, maxRedirects, markdownMemoryMb }
    return fetchPage(this.http, url, limits, options)
  }

  /**
   * A JSON request to an endpoint the person configured (a search provider): the proxy
   * settings apply, the private-address guard does not (a SearXNG instance is often local).
   */
  async json(init: WebJsonRequest): Promise<unknown> {
    const signal = AbortSignal.any([
      AbortSignal.timeout(this.settings.timeoutMs),
      ...(init.signal ? [init.signal] : []),
    ])
    const body = init.body === undefined ? undefined : JSON.stringify(init.body)
    const headers = {
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...init.headers,
    }
    const response = await this.http.request(new URL(init.url), {
      method: init.method ?? 'GET',
      headers,
      ...(body !== undefined && { body }),
      signal,
      guarded: false,
    })
    const text = await response.body.text()
    if (response.statusCode >= 400) {
      throw new WebError(
        'WEB_SEARCH_FAILED',
        `${new URL(init.url).origin} answered ${response.statusCode}: ${text.slice(0, 300)}`,
      )
    }
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw new WebError(
        'WEB_SEARCH_FAILED',
        `${new URL(init.url).origin} did not answer with JSON.`,
      )
    }
  }

  /** Adds a search provider until the returned function runs or the caller is disposed. */
  addSearchProvider(provider: WebSearchProvider): () => void {
    const dispose = this.ctx.effect(() => {
      this.providers.push(provider)
      return () => void this.providers.splice(this.providers.indexOf(provider) >>> 0, 1)
    }, `search provider ${provider.name}`)
    return () => void dispose()
  }

  /** The provider searches go to (the first added), if any. */
  get searchProvider(): WebSearchProvider | undefined {
    return this.providers[0]
  }

  /** Searches with the provider; WEB_NO_SEARCH when there is none. */
  async search(query: string, options: WebSearchOptions): Promise<WebSearchResult[]> {
    const provider = this.searchProvider
    if (provider === undefined) {
      throw new WebError(
        'WEB_NO_SEARCH',
        'No web search provider is configured (--web-search-url for SearXNG, or --web-search-deepseek).',
      )
    }
    return provider.search(query, options)
  }
}

export { Config } from './config'
export type { WebConfig } from './config'
export { WEB_ERROR_CODES, WebError, isWebError } from './errors'
export type { WebErrorCode } from './errors'
export { nonPublicRange } from './address'
export { parseWebUrl } from './fetch-page'
export { proxyEnvFrom, proxyFor } from './proxy'
export type { WebProxyEnv } from './proxy'
export type {
  WebAddress,
  WebFetchOptions,
  WebJsonClient,
  WebJsonRequest,
  WebPage,
  WebRedirect,
  WebResolver,
  WebSearchOptions,
  WebSearchProvider,
  WebSearchResult,
} from './types'
