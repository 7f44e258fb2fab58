// The file tools the agent's tests run on, as the app loads them (below the agent host, so not
// through the stack package, which sits above it): the disk on `cwd`, the read-before-write
// policy, the tool registry, the system prompt, read/write/edit and glob/grep.
import type { Context } from 'cordis'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import * as FsPolicy from '@deepseek-ai/dsh-fs-policy'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolFs from '@deepseek-ai/dsh-tool-fs'
import * as ToolSearch from '@deepseek-ai/dsh-tool-search'
import ToolRegistry from '@deepseek-ai/dsh-tools'

export async function loadFileTools(ctx: Context, cwd: string): Promise<void> {
  await ctx.plugin(LocalFileSystem, { cwd })
  await ctx.plugin(FsPolicy)
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(ToolFs, {})
  await ctx.plugin(ToolSearch, {})
}
