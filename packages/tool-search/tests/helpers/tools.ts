// The search tools mounted as a host mounts them (the registry, the system prompt, the plugin)
// and called through ctx.tools.execute for a session whose workspace is the tree.
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type { ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import * as ToolSearch from '../../src/index'
import type { ToolSearchConfig } from '../../src/index'
import { testSession } from '@deepseek-ai/dsh-tools/testing'

export interface SearchTools {
  ctx: Context
  /** The search plugin's fiber. */
  plugin: Fiber
  call(
    name: 'glob' | 'grep',
    args: Record<string, unknown>,
    options?: { cwd?: string; signal?: AbortSignal },
  ): Promise<ToolExecutionResult>
  text(result: ToolExecutionResult): string
}

export async function mountSearch(
  cwd: string,
  config: ToolSearchConfig = {},
): Promise<SearchTools> {
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  const plugin = await ctx.plugin(ToolSearch, config)
  let calls = 0
  return {
    ctx,
    plugin,
    call: (name, args, options = {}) =>
      ctx.tools.execute({
        callId: `c${++calls}`,
        name,
        arguments: args,
        session: testSession({ id: 's1', cwd: options.cwd ?? cwd }),
        ...(options.signal && { signal: options.signal }),
      }),
    text: (result) => result.content.map((block) => block.text).join('\n'),
  }
}
