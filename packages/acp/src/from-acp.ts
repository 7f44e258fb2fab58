// Converters from ACP wire shapes to what the agent host takes: a `session/prompt`'s content
// blocks become one user message text.
// Pure: no I/O, no Cordis. Bad input throws a JSON-RPC `invalid params` RequestError whose
// message says what was wrong.
import { fileURLToPath } from 'node:url'
import { RequestError } from '@agentclientprotocol/sdk'
import type { ContentBlock } from '@agentclientprotocol/sdk'

export function invalidParams(message: string, data?: Record<string, unknown>): RequestError {
  return RequestError.invalidParams(data, message)
}

/** A resource link becomes a mention of the file (its path) or of its URI. */
function mentionOf(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return `@${fileURLToPath(uri)}`
    } catch {
      // A malformed file URI is still a usable mention as written.
      return `@${uri}`
    }
  }
  return `@${uri}`
}

/** Joins parts with a space only where neither side already has whitespace. */
function joinParts(parts: readonly string[]): string {
  let text = ''
  for (const part of parts) {
    if (text.length > 0 && !/\s$/.test(text) && !/^\s/.test(part)) text += ' '
    text += part
  }
  return text
}

/**
 * Text blocks are taken as written; `resource_link` blocks become mentions of their file.
 * Images and audio are refused (not advertised), and so are embedded `resource` blocks
 * (`embeddedContext` is not advertised). A prompt with no non-blank text is refused.
 */
export function fromAcpPrompt(blocks: readonly ContentBlock[]): string {
  const parts: string[] = []
  blocks.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        parts.push(block.text)
        break
      case 'resource_link':
        parts.push(mentionOf(block.uri))
        break
      default:
        throw invalidParams(
          `prompt[${index}] is a "${block.type}" block; this agent accepts only "text" and ` +
            `"resource_link" content (promptCapabilities: image, audio and embeddedContext are false)`,
          { index, type: block.type },
        )
    }
  })
  const text = joinParts(parts)
  if (text.trim().length === 0) {
    throw invalidParams('prompt is empty: send at least one non-blank "text" block')
  }
  return text
}
