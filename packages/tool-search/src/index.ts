// tool-search: the `glob` and `grep` tools over ripgrep, with a system-prompt section each.
// A function plugin: everything it registers goes away when it is disposed. It reads the disk
// through ripgrep (and stats the files glob finds); it does not use ctx.fs, whose editor
// buffers a search of the disk could not see anyway. A search is judged by the permission
// layer as a read of its root (`access`).
import type { Context } from 'cordis'
import { configOf } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import { createGlobTool } from './glob'
import { createGrepTool } from './grep'
import { globPrompt, grepPrompt } from './prompt'

export const name = 'tool-search'

export const inject = ['tools', 'systemPrompt']

export const Config = z
  .object({
    timeoutMs: z
      .number()
      .int()
      .min(1)
      .default(30_000)
      .describe('The longest one search may run, in ms; ripgrep is ended then.'),
    rgPath: z
      .string()
      .min(1)
      .optional()
      .describe("A ripgrep binary to run instead of @vscode/ripgrep's (or PATH's)."),
  })
  .prefault({})

export type ToolSearchConfig = z.input<typeof Config>

export function apply(ctx: Context, config: ToolSearchConfig): void {
  const options = configOf(Config, config)
  ctx.tools.register(createGlobTool(options))
  ctx.tools.register(createGrepTool(options))
  ctx.systemPrompt.add({ name: 'tool-search/glob', text: globPrompt })
  ctx.systemPrompt.add({ name: 'tool-search/grep', text: grepPrompt })
}

export { ripgrepPath, findOnPath } from './engine'
export { SEARCH_ERROR_CODES, SearchError, isSearchError } from './errors'
export type { SearchErrorCode } from './errors'
export { runRipgrep } from './process'
export type { RipgrepExit, RipgrepRun } from './process'
export type { GlobArgs } from './glob'
export type { GrepArgs } from './grep-input'
export type { SearchDetails } from './present'
