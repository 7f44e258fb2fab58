// Images in a session: a prompt's images and a tool result's images as the model is sent
// them (`images` of a user or tool message), and the refusal of an image prompt by a session
// whose model reads text only. Images are kept in the log as they came (base64), so a loaded
// session sends them again. Pure.
import type { LlmImage, LlmMessage, LlmModelInfo } from '@deepseek-ai/dsh-llm'
import type { ToolContent, ToolImage } from '@deepseek-ai/dsh-tools'
import { AgentError } from '../errors'

type ToolMessage = Extract<LlmMessage, { role: 'tool' }>

/** A tool result as the model's tool message: its text, and its images when it has some. */
export function toolMessageOf(
  toolCallId: string,
  result: { content: readonly ToolContent[]; isError: boolean; images?: readonly ToolImage[] },
): ToolMessage {
  const content = result.content.map((block) => block.text).join('\n')
  const images = result.images ?? []
  return {
    role: 'tool',
    toolCallId,
    content,
    isError: result.isError,
    ...(images.length > 0 && { images: [...images] }),
  }
}

/** A user message, with its images when it has some. */
export function userMessageOf(text: string, images: readonly LlmImage[] | undefined): LlmMessage {
  return images === undefined || images.length === 0
    ? { role: 'user', content: text }
    : { role: 'user', content: text, images: [...images] }
}

/**
 * Refuses images for a model that reads text only (AGENT_IMAGE_INPUT), naming the model and
 * what to do; nothing is logged or sent.
 */
export function assertTakesImages(info: LlmModelInfo, images: readonly LlmImage[]): void {
  if (images.length === 0 || info.imageInput === true) return
  const count = images.length === 1 ? 'an image' : `${images.length} images`
  throw new AgentError(
    'AGENT_IMAGE_INPUT',
    `The model ${info.id} reads text only, so the prompt with ${count} was not sent. ` +
      'Remove the image and describe it in words, or switch the session to a model that takes ' +
      'images (if this model does, start dsh with --image-input).',
  )
}

/**
 * The messages as a model is sent them: unchanged for a model that takes images; for one that
 * reads text only (after a switch), each image replaced by a line saying it was left out.
 */
export function imagesFor(messages: LlmMessage[], info: LlmModelInfo): LlmMessage[] {
  if (info.imageInput === true || !messages.some(hasImages)) return messages
  return messages.map((message) => {
    if (!hasImages(message)) return message
    const { images, ...rest } = message as LlmMessage & { images: LlmImage[] }
    const note = `[${images.length} image(s) left out: the model ${info.id} reads text only]`
    return {
      ...rest,
      content: rest.content === '' ? note : `${rest.content}\n${note}`,
    } as LlmMessage
  })
}

function hasImages(message: LlmMessage): boolean {
  return message.role !== 'assistant' && (message.images?.length ?? 0) > 0
}
