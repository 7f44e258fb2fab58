// A prompt's images: `image` content blocks taken out of a `session/prompt` and checked (a type
// the models take, base64 data, a bounded size), the rest of the prompt made text as before
// (./from-acp); and `promptCapabilities.image` in the `initialize` answer, true when the model
// new sessions start with takes images. Whether a session's model takes them is the agent
// host's to say: it refuses an image prompt for a model that reads text only.
// Pure: no I/O. Bad input throws a JSON-RPC `invalid params` RequestError saying what was wrong.
import type { ContentBlock, InitializeResponse } from '@agentclientprotocol/sdk'
import { fromAcpPrompt, invalidParams } from './from-acp'

/** An image of a prompt as the agent host takes it. */
export interface AcpPromptImage {
  mimeType: string
  /** Base64. */
  data: string
}

/** The image types a prompt may carry (those the models that take images accept). */
export const PROMPT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const

/** The largest image a prompt may carry, decoded: 10 MiB. */
export const MAX_PROMPT_IMAGE_BYTES = 10 * 1024 * 1024

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** The decoded size of base64 `data`. */
function decodedBytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.floor((data.length * 3) / 4) - padding
}

function checkedImage(block: ContentBlock & { type: 'image' }, index: number): AcpPromptImage {
  const mimeType = block.mimeType.toLowerCase()
  if (!(PROMPT_IMAGE_TYPES as readonly string[]).includes(mimeType)) {
    const types = PROMPT_IMAGE_TYPES.join(', ')
    const message = `prompt[${index}] is an image of type "${block.mimeType}"; send one of ${types}`
    throw invalidParams(message, { index, mimeType: block.mimeType })
  }
  const data = block.data.replace(/\s+/g, '')
  if (data === '' || data.length % 4 !== 0 || !BASE64.test(data)) {
    const message = `prompt[${index}] is an image whose data is not base64; send the image's bytes base64-encoded`
    throw invalidParams(message, { index })
  }
  const bytes = decodedBytes(data)
  if (bytes > MAX_PROMPT_IMAGE_BYTES) {
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`
    const message = `prompt[${index}] is an image of ${mib(bytes)}, over the ${mib(MAX_PROMPT_IMAGE_BYTES)} a prompt image may have; send a smaller image`
    throw invalidParams(message, { index, bytes })
  }
  return { mimeType, data }
}

/**
 * The prompt's text (as `fromAcpPrompt` makes it) and its images, in order. A prompt of images
 * alone gets a line saying so as its text.
 */
export function fromAcpPromptWithImages(
  blocks: readonly ContentBlock[],
  cwd: string,
): { text: string; images: AcpPromptImage[] } {
  const images: AcpPromptImage[] = []
  const rest: ContentBlock[] = []
  blocks.forEach((block, index) => {
    if (block.type === 'image') images.push(checkedImage(block, index))
    else rest.push(block)
  })
  if (images.length === 0) return { text: fromAcpPrompt(blocks, cwd), images }
  const blank = rest.every((block) => block.type === 'text' && block.text.trim() === '')
  if (blank) {
    const text =
      images.length === 1 ? '[an image is attached]' : `[${images.length} images are attached]`
    return { text, images }
  }
  return { text: fromAcpPrompt(rest, cwd), images }
}

/** The `initialize` answer with `promptCapabilities.image` set as the default model allows. */
export function withImagePrompts(
  response: InitializeResponse,
  takesImages: boolean,
): InitializeResponse {
  const capabilities = response.agentCapabilities
  if (capabilities === undefined || capabilities === null) return response
  const prompt = { ...capabilities.promptCapabilities, image: takesImages }
  return { ...response, agentCapabilities: { ...capabilities, promptCapabilities: prompt } }
}
