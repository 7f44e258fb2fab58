// Results as providers hand them on: text cleaned of markup and runs of blanks, clipped.
import type { WebSearchResult } from '../types'

/** A snippet keeps this many characters, then `…`. */
export const SNIPPET_CHARS = 400
/** A title keeps this many characters, then `…`. */
export const TITLE_CHARS = 200

export function cleanText(text: unknown, max: number): string {
  if (typeof text !== 'string') return ''
  const plain = text
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  return plain.length <= max ? plain : `${plain.slice(0, max - 1)}…`
}

/** A result from loose JSON fields, or undefined without an http(s) URL. */
export function toResult(
  title: unknown,
  url: unknown,
  snippet: unknown,
): WebSearchResult | undefined {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return undefined
  return {
    title: cleanText(title, TITLE_CHARS) || url,
    url,
    snippet: cleanText(snippet, SNIPPET_CHARS),
  }
}

export function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined
}
