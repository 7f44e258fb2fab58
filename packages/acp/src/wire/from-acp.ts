// Converters from ACP wire shapes to what the agent host takes: a `session/prompt`'s content
// blocks become one user message text (resources: ./prompt-resources).
// Pure: no I/O, no Cordis. Bad input throws a JSON-RPC `invalid params` RequestError whose
// message says what was wrong.
import { RequestError } from '@agentclientprotocol/sdk'
import type { ContentBlock } from '@agentclientprotocol/sdk'
import { fromAcpResource, mentionOf } from './prompt-resources'

export function invalidParams(message: string, data?: Record<string, unknown>): RequestError {
  return RequestError.invalidParams(data, message)
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
 * Text blocks are taken as written; `resource_link` blocks become mentions of their file;
 * embedded `resource` blocks become mentions too, their text attached after the message
 * (`cwd`, the session's, makes the attached paths relative). Images and audio are refused (not
 * advertised). A prompt with no non-blank text is refused.
 */
export function fromAcpPrompt(blocks: readonly ContentBlock[], cwd: string): string {
  const parts: string[] = []
  const attachments: string[] = []
  blocks.forEach((block, index) => {
    switch (block.type) {
      case 'text':
        parts.push(block.text)
        break
      case 'resource_link':
        parts.push(mentionOf(block.uri))
        break
      case 'resource': {
        const { mention, attachment } = fromAcpResource(block.resource, cwd)
        parts.push(mention)
        if (attachment !== undefined) attachments.push(attachment)
        break
      }
      default:
        throw invalidParams(
          `prompt[${index}] is a "${block.type}" block; this agent accepts only "text", ` +
            `"resource_link" and "resource" content (promptCapabilities: image and audio are false)`,
          { index, type: block.type },
        )
    }
  })
  const text = joinParts(parts)
  if (text.trim().length === 0) {
    throw invalidParams('prompt is empty: send at least one non-blank "text" block')
  }
  return attachments.length === 0 ? text : [text, ...attachments].join('\n\n')
}
