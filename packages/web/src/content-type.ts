// Which responses count as text, and how their bytes decode. Text types only: `text/*`,
// JSON, XML, JavaScript, YAML, and their `+json`/`+xml` kin; a response without a type is
// taken as text unless its first bytes hold a NUL. Pure.

const TEXT_TYPES = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/xhtml+xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-sh',
  'application/rss+xml',
  'application/atom+xml',
])

/** The media type (lower case, no parameters) and the charset a header names. */
export function parseContentType(header: string | undefined): { type: string; charset?: string } {
  if (header === undefined) return { type: '' }
  const [type = '', ...params] = header.split(';')
  const charset = params
    .map((param) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(param)?.[1])
    .find((value) => value !== undefined)
  return { type: type.trim().toLowerCase(), ...(charset !== undefined && { charset }) }
}

export function isTextType(type: string): boolean {
  if (type === '') return true
  if (type.startsWith('text/')) return true
  if (type.endsWith('+json') || type.endsWith('+xml')) return true
  return TEXT_TYPES.has(type)
}

export function isHtmlType(type: string): boolean {
  return type === 'text/html' || type === 'application/xhtml+xml'
}

/** A body with no declared type that holds a NUL in its first KiB is binary. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, 1024).includes(0)
}

/** The body's text: its charset when known to the platform, else UTF-8; bad bytes as U+FFFD. */
export function decodeBody(bytes: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}
