// Which models take images: a table of known model families, what the server's own model list
// says of a model (`GET /models`: OpenRouter's `architecture.input_modalities`, or a top-level
// `input_modalities`), and the host's word (the `imageInput` config: the configured model takes
// images). The host's word wins, then the server's, then the table; a model none of them knows
// is taken to read text only, so nobody sends it an image it would refuse. Pure.

/** One family of models by the start of its id (lower case), and whether it takes images. */
export interface ImageInputRule {
  prefix: string
  imageInput: boolean
}

/**
 * Known families, most specific first. DeepSeek's models read text only (its V4 models, and
 * the names they replaced); the other rows are the families whose vendors document image
 * input on their OpenAI-compatible endpoints.
 */
export const IMAGE_INPUT_RULES: readonly ImageInputRule[] = [
  { prefix: 'deepseek-', imageInput: false },
  { prefix: 'gpt-3.5', imageInput: false },
  { prefix: 'gpt-4o', imageInput: true },
  { prefix: 'gpt-4.1', imageInput: true },
  { prefix: 'gpt-5', imageInput: true },
  { prefix: 'o3', imageInput: true },
  { prefix: 'o4', imageInput: true },
  { prefix: 'claude-', imageInput: true },
  { prefix: 'gemini-', imageInput: true },
  { prefix: 'gemma3', imageInput: true },
  { prefix: 'llava', imageInput: true },
  { prefix: 'pixtral', imageInput: true },
  { prefix: 'qwen2.5-vl', imageInput: true },
  { prefix: 'qwen-vl', imageInput: true },
  { prefix: 'llama3.2-vision', imageInput: true },
]

/** The table's answer for `model` (an `org/` prefix is skipped); undefined when it has no row. */
export function knownImageInput(model: string): boolean | undefined {
  const id = model.toLowerCase()
  const name = id.slice(id.lastIndexOf('/') + 1)
  return IMAGE_INPUT_RULES.find((rule) => name.startsWith(rule.prefix))?.imageInput
}

/**
 * What one `GET /models` entry says of image input: true or false when it lists its input
 * modalities, undefined when it says nothing (OpenAI's own list gives ids only).
 */
export function listedImageInput(entry: unknown): boolean | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined
  const { architecture, input_modalities } = entry as {
    architecture?: { input_modalities?: unknown } | null
    input_modalities?: unknown
  }
  const modalities = architecture?.input_modalities ?? input_modalities
  if (!Array.isArray(modalities)) return undefined
  return modalities.includes('image')
}
