// Images on the Chat Completions wire: a user message with images is sent as content parts
// (its text, then one `image_url` part per image, each a `data:` URL). A tool message takes
// text only on this wire, so the images of a run of tool results follow that run as one user
// message that says which call read each image. Pure: no fetch, no Cordis.
import type { LlmImage, LlmMessage } from '@deepseek-ai/dsh-llm'

export type WireContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

/** `data:<type>;base64,<data>`, the URL form every OpenAI-compatible server takes. */
export function imageDataUrl(image: LlmImage): string {
  return `data:${image.mimeType};base64,${image.data}`
}

function imagePart(image: LlmImage): WireContentPart {
  return { type: 'image_url', image_url: { url: imageDataUrl(image) } }
}

/** A user message's content: its text alone, or its text then its images as parts. */
export function toWireUserContent(
  text: string,
  images?: readonly LlmImage[],
): string | WireContentPart[] {
  if (images === undefined || images.length === 0) return text
  const parts: WireContentPart[] = text === '' ? [] : [{ type: 'text', text }]
  return [...parts, ...images.map(imagePart)]
}

type ToolMessage = Extract<LlmMessage, { role: 'tool' }>

/**
 * The user message that carries the images of a run of tool results (right after the run),
 * or undefined when none of them has any.
 */
export function toolImagesMessage(
  results: readonly ToolMessage[],
): { role: 'user'; content: WireContentPart[] } | undefined {
  const content: WireContentPart[] = []
  for (const result of results) {
    const images = result.images ?? []
    if (images.length === 0) continue
    const count = images.length === 1 ? 'The image' : `The ${images.length} images`
    content.push({ type: 'text', text: `${count} from tool call ${result.toolCallId}:` })
    content.push(...images.map(imagePart))
  }
  return content.length === 0 ? undefined : { role: 'user', content }
}
