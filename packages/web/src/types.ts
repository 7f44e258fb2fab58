// Types of the ctx.web seam: a fetched page, a search and its results, the provider contract.

/** One address a name resolves to. */
export interface WebAddress {
  address: string
  family: number
}

/** Resolves a host name to every address it has (the system's `getaddrinfo` by default). */
export type WebResolver = (hostname: string) => Promise<WebAddress[]>

/** What one fetch may take. */
export interface WebFetchLimits {
  /** Body bytes read at most; the rest is never read (the connection is closed). */
  maxBytes: number
  /** The whole fetch (connect, redirects, headers, body, the HTML's conversion), in ms. */
  timeoutMs: number
  /** Redirects followed on the same origin. */
  maxRedirects: number
  /** The heap of the HTML → Markdown worker, in MiB. */
  markdownMemoryMb: number
}

export interface WebFetchOptions {
  signal?: AbortSignal
}

/** A fetch that ended in a redirect to another origin, which is not followed. */
export interface WebRedirect {
  /** The absolute URL the last response pointed at. */
  location: string
  status: number
}

/** What a fetch brought back: the page as text (HTML already turned into Markdown). */
export interface WebPage {
  /** The URL asked for. */
  url: string
  /** The URL the text came from, after same-origin redirects. */
  finalUrl: string
  status: number
  statusText: string
  /** The media type, lower case, without parameters; '' when the server sent none. */
  contentType: string
  /** The page's `<title>`, for HTML that has one. */
  title?: string
  /** The text: Markdown for HTML, else the body decoded. Empty for a cross-origin redirect. */
  text: string
  /** Body bytes read. */
  bytes: number
  /** The body was longer than `maxBytes` and cut there. */
  truncated: boolean
  /** Set when the server redirected to another origin: nothing was fetched from there. */
  redirect?: WebRedirect
}

/** One search result. */
export interface WebSearchResult {
  title: string
  url: string
  snippet: string
}

export interface WebSearchOptions {
  /** Results wanted at most. */
  limit: number
  signal?: AbortSignal
}

/** A search backend behind ctx.web. */
export interface WebSearchProvider {
  /** Short, for people and the model (`SearXNG at https://…`, `DeepSeek Search`). */
  readonly name: string
  search(query: string, options: WebSearchOptions): Promise<WebSearchResult[]>
}

/** A JSON request a search provider makes through the seam's HTTP client. */
export interface WebJsonRequest {
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: unknown
  signal?: AbortSignal
}

/** What a search provider needs of ctx.web: JSON requests through its client. */
export interface WebJsonClient {
  json(init: WebJsonRequest): Promise<unknown>
}
