// HTML into Markdown for a model to read, with node-html-markdown (no DOM): headings, lists,
// links, code and GitHub-style tables kept; scripts, styles and the head dropped. The page's
// `<title>` is taken apart. The converter loads with the first page, not with the seam.
import type { NodeHtmlMarkdown } from 'node-html-markdown'

let converter: Promise<NodeHtmlMarkdown> | undefined

function loadConverter(): Promise<NodeHtmlMarkdown> {
  converter ??= import('node-html-markdown').then(
    ({ NodeHtmlMarkdown }) =>
      new NodeHtmlMarkdown({
        // Inline images as data: URLs are noise to a model; their alt text stays.
        keepDataImages: false,
        maxConsecutiveNewlines: 2,
      }),
  )
  return converter
}

export interface WebMarkdown {
  title?: string
  markdown: string
}

export async function htmlToMarkdown(html: string): Promise<WebMarkdown> {
  const title = titleOf(html)
  const markdown = (await loadConverter()).translate(html).trim()
  return { ...(title !== undefined && { title }), markdown }
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

function titleOf(html: string): string | undefined {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)
  if (!match) return undefined
  const text = match[1]!
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) {
        return String.fromCodePoint(parseInt(name.slice(2), 16))
      }
      if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10))
      return ENTITIES[name.toLowerCase()] ?? whole
    })
    .replace(/\s+/g, ' ')
    .trim()
  return text === '' ? undefined : text
}
