// What a prompt's resources become in the user message: a `resource_link` is a mention (`@path`
// for a file, else `@uri`); an embedded `resource` is a mention in place plus, for text up to
// 256 KiB, an `<attachment>` block with its URI, its path relative to the session cwd (file
// URIs), and the text as the client sent it (perhaps an unsaved buffer). A blob, or larger
// text, stays a mention that tells the model to `read` the file instead.
// Pure: no I/O. The attached text is not a read: the file tools never saw that version.
import { isAbsolute, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { EmbeddedResourceResource } from '@agentclientprotocol/sdk'

/** The largest text embedded whole, in UTF-8 bytes. */
export const MAX_EMBEDDED_BYTES = 256 * 1024

/** The file path of a `file:` URI; `undefined` for another scheme or a malformed URI. */
function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined
  try {
    return fileURLToPath(uri)
  } catch {
    // A malformed file URI is mentioned as written, and read by no one.
    return undefined
  }
}

/** A resource link becomes a mention of the file (its path) or of its URI. */
export function mentionOf(uri: string): string {
  return `@${filePathOf(uri) ?? uri}`
}

/** `path` relative to `cwd` when inside it, else as it is. */
function displayPath(path: string, cwd: string): string {
  const inside = relative(cwd, path)
  if (inside === '') return '.'
  return inside.startsWith('..') || isAbsolute(inside) ? path : inside
}

function attribute(name: string, value: string): string {
  return ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`
}

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KiB`
}

export interface PromptResource {
  /** What stands where the block was: a mention of the resource. */
  mention: string
  /** The resource's text, to add after the message; absent when only mentioned. */
  attachment?: string
}

/** An embedded resource as a mention, and its text as an attachment when small enough. */
export function fromAcpResource(resource: EmbeddedResourceResource, cwd: string): PromptResource {
  const { uri } = resource
  const path = filePathOf(uri)
  const mention = mentionOf(uri)
  const readIt = path === undefined ? '' : '; read the file with the read tool if it is needed'
  if (!('text' in resource)) {
    return { mention: `${mention} (attached as binary content, not included${readIt})` }
  }
  const bytes = Buffer.byteLength(resource.text, 'utf8')
  if (bytes > MAX_EMBEDDED_BYTES) {
    const size = `${kib(bytes)} of text, over the ${kib(MAX_EMBEDDED_BYTES)} that are included`
    return { mention: `${mention} (attached, not included: ${size}${readIt})` }
  }
  let open = `<attachment${attribute('uri', uri)}`
  if (path !== undefined) open += attribute('path', displayPath(path, cwd))
  if (resource.mimeType) open += attribute('type', resource.mimeType)
  const body = resource.text.endsWith('\n') ? resource.text : `${resource.text}\n`
  return { mention, attachment: `${open}>\n${body}</attachment>` }
}
