// tool-fs/image: the `read_image` tool over ctx.fs, for a model that takes images (the agent
// host offers it only to such a model: its results carry images). A function plugin of its own
// beside the text tools, named `tool-image` (the stack's `toolImage` key loads it): what it
// registers goes away when it is disposed. No prompt section: the tool's description says
// what it is for.
import type { Context } from 'cordis'
import { z } from 'zod'
import type {} from '@deepseek-ai/dsh-fs' // for its augmentation: ctx.fs
import { configOf, untraced } from '@deepseek-ai/dsh-tools'
import { createReadImageTool } from './read-image'

export const name = 'tool-image'

export const inject = ['fs', 'tools']

export const Config = z
  .object({
    /** The largest image file sent to the model, in bytes (default 5 MiB). */
    maxBytes: z
      .number()
      .int()
      .min(1024)
      .max(20 * 1024 * 1024)
      .default(5 * 1024 * 1024),
  })
  .prefault({})

export type ToolImageConfig = z.input<typeof Config>

export function apply(ctx: Context, config: ToolImageConfig): void {
  // Cordis validated `config` against Config when it loaded the plugin: defaults are in.
  const options = configOf(Config, config)
  ctx.tools.register(createReadImageTool(untraced(ctx.fs), options))
}

export { IMAGE_ERROR_CODES, ImageError, isImageError } from './errors'
export type { ImageErrorCode } from './errors'
export { imageTypeName, sniffImageType } from './sniff'
export type { ImageType } from './sniff'
export { presentReadImageCall, presentReadImageResult, readImageInput } from './read-image'
export type { ReadImageArgs, ReadImageDetails } from './read-image'
