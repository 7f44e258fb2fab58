// The web_fetch card: `Fetch <url>`, kind `fetch`; once done, the status and size on a first
// line and the page's Markdown clipped below it; a redirect to another host says where. Pure
// and total: presentation runs on whatever arguments a UI replays.
import type {
  ToolCallPresentation,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import type { WebPage } from '@deepseek-ai/dsh-web'
import { clipText, statusLine } from './fetch-format'
import type { FetchArgs } from './input'

/** The Markdown a card shows at most, in characters. */
export const CARD_CHARS = 2_000

/** `details` of web_fetch: the page's facts and the start of its text, for the card. */
export interface FetchDetails {
  url: string
  finalUrl: string
  status: number
  statusText: string
  contentType: string
  bytes: number
  truncated: boolean
  /** The first CARD_CHARS of the text. */
  preview: string
  /** The text went on past the preview. */
  more: boolean
  redirect?: { location: string; status: number }
}

export function presentFetchCall(args: FetchArgs): ToolCallPresentation {
  // The title says it all; the arguments reach the client as the call's own rawInput.
  return { title: `Fetch ${args.url}`, kind: 'fetch' }
}

export function presentFetchResult(
  args: FetchArgs,
  result: ToolResultView<FetchDetails>,
): ToolResultPresentation | undefined {
  const details = result.details
  if (details === undefined || typeof details.status !== 'number') return undefined
  const title = `Fetch ${args.url}`
  if (details.redirect !== undefined) {
    const line = `${details.redirect.status} → ${details.redirect.location} (another host, not followed)`
    return { title, content: [{ type: 'text', text: line }] }
  }
  const status = statusLine(details)
  const text = details.more ? `${clipText(details.preview, CARD_CHARS).text}\n\n…` : details.preview
  return {
    title,
    content: [
      { type: 'text', text: details.truncated ? `${status} (cut at the size cap)` : status },
      ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    ],
  }
}

export function detailsOf(page: WebPage): FetchDetails {
  const { text, clipped } = clipText(page.text, CARD_CHARS)
  return {
    url: page.url,
    finalUrl: page.finalUrl,
    status: page.status,
    statusText: page.statusText,
    contentType: page.contentType,
    bytes: page.bytes,
    truncated: page.truncated,
    preview: text,
    more: clipped,
    ...(page.redirect !== undefined && { redirect: page.redirect }),
  }
}
