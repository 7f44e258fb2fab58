// tool-fs: the `read`, `write` and `edit` tools over ctx.fs, with a system-prompt section
// each. A function plugin: everything it registers goes away when it is disposed.
// It holds no policy (fs-policy answers the fs/* intents when loaded) and does no I/O itself.
import type { Context } from 'cordis'
import { z } from 'zod'
import type {} from '@deepseek-ai/dsh-fs' // for its augmentation: ctx.fs, the fs/* events
import type {} from '@deepseek-ai/dsh-diagnostics' // for its augmentation: ctx.diagnostics
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import { configOf, eventBusOf, untraced } from '@deepseek-ai/dsh-tools'
import { createEditTool, editPrompt } from './edit'
import { LineIndexCache } from './line-index'
import { PreviewedVersions } from './previewed-versions'
import { createReadTool, readPrompt } from './read'
import { createWriteTool, writePrompt } from './write'

export const name = 'tool-fs'

export const inject = ['fs', 'tools', 'systemPrompt']

export const Config = z
  .object({
    smallFileBytes: z
      .number()
      .int()
      .min(0)
      .default(256 * 1024)
      .describe('Files up to this size are read whole; larger ones are scanned as bytes.'),
    indexedFiles: z
      .number()
      .int()
      .min(1)
      .default(16)
      .describe('Files whose line index is kept for paging (least recently read dropped).'),
  })
  .prefault({})

export type ToolFsConfig = z.input<typeof Config>

export function apply(ctx: Context, config: ToolFsConfig): void {
  const options = configOf(Config, config)
  const lineIndex = new LineIndexCache({ maxFiles: options.indexedFiles })
  // Taken once: a call then reaches the provider and the events without Cordis's proxies.
  const host = {
    fs: untraced(ctx.fs),
    events: eventBusOf(ctx),
    // Optional and looked up per call: a diagnostics provider may load after the tools, or not.
    diagnostics: () => {
      const found = ctx.get('diagnostics')
      return found === undefined ? undefined : untraced(found)
    },
    previews: new PreviewedVersions(),
  }
  ctx.tools.register(createReadTool(host, { smallFileBytes: options.smallFileBytes, lineIndex }))
  ctx.tools.register(createWriteTool(host))
  ctx.tools.register(createEditTool(host))
  ctx.systemPrompt.add({ name: 'tool-fs/read', text: readPrompt })
  ctx.systemPrompt.add({ name: 'tool-fs/write', text: writePrompt })
  ctx.systemPrompt.add({ name: 'tool-fs/edit', text: editPrompt })
  ctx.effect(() => () => lineIndex.clear(), 'tool-fs line index')
}

export type { ReadArgs, ReadDetails } from './read'
export type { EditArgs, WriteArgs } from './args'
export type { WriteDetails } from './write'
export type { EditDetails } from './edit'
