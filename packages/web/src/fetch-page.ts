// One web_fetch: http(s) only, same-origin redirects followed up to the limit, a redirect to
// another origin (scheme, host or port) returned unfollowed (the person allowed this origin,
// not that one), text types only, the body streamed and cut at `maxBytes` (the rest is never
// read: the connection is closed), HTML turned into Markdown in a worker, everything under one
// time cap, the conversion included. Not the guard (./http.ts and ./guard.ts apply it to every
// connection).
import type { Dispatcher } from 'undici'
import { decodeBody, isHtmlType, isTextType, looksBinary, parseContentType } from './content-type'
import { WebError, isWebError } from './errors'
import type { WebHttp } from './http'
import { htmlToMarkdown } from './markdown'
import type { WebFetchLimits, WebFetchOptions, WebPage } from './types'

/** The URL a fetch may start from: http(s), no credentials; its fragment dropped. */
export function parseWebUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new WebError('WEB_BAD_URL', `"${text}" is not a URL; give a full http(s) URL.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebError(
      'WEB_BAD_URL',
      `Only http and https URLs can be fetched, not ${url.protocol.slice(0, -1)}: "${text}".`,
    )
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebError('WEB_BAD_URL', 'URLs with a user name or password are not fetched.')
  }
  url.hash = ''
  return url
}

/** Text first; anything else is refused by its type once it comes. */
const ACCEPT = 'text/html, text/markdown;q=0.9, text/plain;q=0.8, application/json;q=0.7, */*;q=0.1'

export async function fetchPage(
  http: WebHttp,
  address: string,
  limits: WebFetchLimits,
  options: WebFetchOptions = {},
): Promise<WebPage> {
  const start = parseWebUrl(address)
  const timer = new AbortController()
  const timeout = setTimeout(() => timer.abort(), limits.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal
  try {
    return await follow(http, start, limits, signal)
  } catch (error) {
    if (timer.signal.aborted && !options.signal?.aborted) {
      throw new WebError(
        'WEB_TIMEOUT',
        `${start.href} was not fetched and read in time (the limit is ${limits.timeoutMs / 1000} s).`,
      )
    }
    throw asWebError(error, start)
  } finally {
    clearTimeout(timeout)
  }
}

async function follow(
  http: WebHttp,
  start: URL,
  limits: WebFetchLimits,
  signal: AbortSignal,
): Promise<WebPage> {
  let url = start
  for (let redirects = 0; ; redirects++) {
    const response = await http.request(url, { headers: { accept: ACCEPT }, signal, guarded: true })
    const location = response.headers.location
    if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined) {
      discard(response.body)
      const next = redirectTarget(url, String(location))
      if (next.origin !== url.origin) {
        return {
          ...emptyPage(start, url, response),
          redirect: { location: next.href, status: response.statusCode },
        }
      }
      if (redirects >= limits.maxRedirects) {
        throw new WebError(
          'WEB_REDIRECT',
          `${start.href} redirected more than ${limits.maxRedirects} times; the last pointed at ${next.href}.`,
        )
      }
      url = next
      continue
    }
    return readPage(start, url, response, limits, signal)
  }
}

function redirectTarget(from: URL, location: string): URL {
  let next: URL
  try {
    next = new URL(location, from)
  } catch {
    throw new WebError(
      'WEB_REDIRECT',
      `${from.href} redirected to "${location}", which is not a URL.`,
    )
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new WebError(
      'WEB_REDIRECT',
      `${from.href} redirected to ${next.href}, which is not http(s).`,
    )
  }
  next.hash = ''
  return next
}

function emptyPage(start: URL, url: URL, response: Dispatcher.ResponseData): WebPage {
  const { type } = parseContentType(headerOf(response, 'content-type'))
  return {
    url: start.href,
    finalUrl: url.href,
    status: response.statusCode,
    statusText: statusTextOf(response.statusCode),
    contentType: type,
    text: '',
    bytes: 0,
    truncated: false,
  }
}

async function readPage(
  start: URL,
  url: URL,
  response: Dispatcher.ResponseData,
  limits: WebFetchLimits,
  signal: AbortSignal,
): Promise<WebPage> {
  const page = emptyPage(start, url, response)
  const { charset } = parseContentType(headerOf(response, 'content-type'))
  if (!isTextType(page.contentType)) {
    discard(response.body)
    throw notText(url, page.contentType)
  }
  const { bytes, truncated } = await readCapped(response.body, limits.maxBytes)
  if (page.contentType === '' && looksBinary(bytes)) throw notText(url, 'no declared type, binary')
  const text = decodeBody(bytes, charset)
  const html =
    isHtmlType(page.contentType) ||
    (page.contentType === '' && /^\s*<(!doctype html|html)/i.test(text))
  if (!html) return { ...page, text, bytes: bytes.length, truncated }
  const converted = await htmlToMarkdown(text, {
    baseUrl: url.href,
    memoryMb: limits.markdownMemoryMb,
    signal,
  })
  return {
    ...page,
    ...(converted.title !== undefined && { title: converted.title }),
    text: converted.markdown,
    bytes: bytes.length,
    truncated,
  }
}

/** Reads at most `max` bytes, then closes the body: the rest is never downloaded. */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  max: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Buffer[] = []
  let total = 0
  let truncated = false
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = max - total
    if (chunk.length >= room) {
      chunks.push(chunk.subarray(0, room))
      total += room
      truncated = chunk.length > room || !body.readableEnded
      break
    }
    chunks.push(chunk)
    total += chunk.length
  }
  discard(body)
  return { bytes: Buffer.concat(chunks, total), truncated }
}

/**
 * Closes a body not (or no longer) read: its connection goes. undici's body then emits an
 * AbortError nobody waits for; it is dropped here, since the reader chose to stop.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined)
  body.destroy()
}

function notText(url: URL, type: string): WebError {
  return new WebError(
    'WEB_NOT_TEXT',
    `${url.href} is ${type} (not text); only text pages (HTML, plain text, JSON, XML…) are fetched.`,
  )
}

function headerOf(response: Dispatcher.ResponseData, name: string): string | undefined {
  const value = response.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** A fetch's failure as a WebError: the guard's own, or the connection's. */
function asWebError(error: unknown, url: URL): unknown {
  for (let cause = error, depth = 0; cause !== undefined && depth < 5; depth++) {
    if (isWebError(cause)) return cause
    cause = (cause as { cause?: unknown }).cause
  }
  if ((error as { name?: string }).name === 'AbortError') return error
  const message = error instanceof Error ? error.message : String(error)
  return new WebError('WEB_UNREACHABLE', `${url.href} could not be fetched: ${message}.`, {
    cause: error,
  })
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  206: 'Partial Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

export function statusTextOf(status: number): string {
  return STATUS_TEXT[status] ?? ''
}
