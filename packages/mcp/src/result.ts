// An MCP tool result, split for its two readers: the model gets the text (text blocks, the text
// of embedded resources, the structured content when there is no text, and a line naming each
// image, audio clip or link it cannot see), the card gets the blocks a person reads (text,
// images, links, and the structured content). Pure.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { ToolPresentationContent } from '@deepseek-ai/dsh-tools'

export interface McpResultParts {
  /** What the model reads. */
  text: string
  /** What the card shows. */
  blocks: ToolPresentationContent[]
}

export function splitResult(result: CallToolResult): McpResultParts {
  const texts: string[] = []
  const blocks: ToolPresentationContent[] = []
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        texts.push(block.text)
        blocks.push({ type: 'text', text: block.text })
        break
      case 'image':
        texts.push(`[an image (${block.mimeType}) was shown to the person]`)
        blocks.push({ type: 'image', data: block.data, mimeType: block.mimeType })
        break
      case 'audio':
        texts.push(`[an audio clip (${block.mimeType}) was returned; it is not shown]`)
        break
      case 'resource_link': {
        const { uri, name, title, mimeType } = block
        texts.push(`[resource link: ${title ?? name} <${uri}>]`)
        blocks.push({
          type: 'link',
          uri,
          name,
          ...(title !== undefined && { title }),
          ...(mimeType !== undefined && { mimeType }),
        })
        break
      }
      case 'resource': {
        const { resource } = block
        if ('text' in resource && typeof resource.text === 'string') {
          texts.push(resource.text)
          blocks.push({ type: 'text', text: resource.text })
        } else {
          texts.push(`[resource ${resource.uri} (binary, not shown)]`)
        }
        break
      }
    }
  }
  if (result.structuredContent !== undefined) {
    // The structured result is on the card always (the agent clips long strings there); the
    // model gets it when there is no text, which by the protocol then carries the same.
    const json = JSON.stringify(result.structuredContent, null, 2)
    if (texts.length === 0) texts.push(json)
    blocks.push({ type: 'text', text: json })
  }
  return { text: texts.join('\n'), blocks }
}
