// WebError: what fetching or searching refuses or fails with, with a code a tool reports
// (`error: { name: 'WebError', code }`) and a message that says what was wrong and what to do.
import { codedError, guardOf } from '@deepseek-ai/dsh-tools/coded-error'

export const WEB_ERROR_CODES = [
  /** Not an http(s) URL, or not a URL at all. */
  'WEB_BAD_URL',
  /** The target is (or resolves to) a loopback, private, link-local or other non-public address. */
  'WEB_PRIVATE_ADDRESS',
  /** The name did not resolve, or the connection failed. */
  'WEB_UNREACHABLE',
  /** The whole fetch took longer than its time cap. */
  'WEB_TIMEOUT',
  /** More redirects than the limit, or a redirect without a usable Location. */
  'WEB_REDIRECT',
  /** The response is not text (an image, an archive, a binary). */
  'WEB_NOT_TEXT',
  /** The HTML could not be turned into Markdown within its memory bound. */
  'WEB_CONVERSION_FAILED',
  /** No search provider is configured. */
  'WEB_NO_SEARCH',
  /** A search provider answered with an error or with something that is not its JSON. */
  'WEB_SEARCH_FAILED',
] as const

export type WebErrorCode = (typeof WEB_ERROR_CODES)[number]

export class WebError extends codedError('WebError', WEB_ERROR_CODES) {}

/** True for a WebError (of `code`, when given). */
export const isWebError = guardOf(WebError)
