// fs-stack: the file tools mounted in one place. One function plugin loads, in the order each
// needs the one before: LocalFileSystem (ctx.fs; AcpFileSystem over it when the editor is to be
// read and written through), FsPolicy (read before write/edit, unless turned off), ToolRegistry (ctx.tools), SystemPrompt (ctx.systemPrompt), ToolFs (read, write,
// edit), ToolSearch (glob, grep; unless turned off) and, when configured, the permission layer (asks before changes, keeps to the roots). The app, the ACP test harness, the tests and the benchmarks all mount it
// here, so the sequence is written once. Disposing its fiber unloads all of it.
// Not the model, the agent host or the bridge: those sit above it.
import type { Context, Fiber } from 'cordis'
import { z } from 'zod'
import AcpFileSystem from '@deepseek-ai/dsh-fs-acp'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import * as FsPolicy from '@deepseek-ai/dsh-fs-policy'
import * as Permission from '@deepseek-ai/dsh-permission'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolFs from '@deepseek-ai/dsh-tool-fs'
import * as ToolSearch from '@deepseek-ai/dsh-tool-search'
import ToolRegistry from '@deepseek-ai/dsh-tools'

export const name = 'fs-stack'

export const Config = z
  .object({
    /** The local provider's config: `cwd` (base for paths outside a session), `maxEditBytes`. */
    local: LocalFileSystem.Config,
    /**
     * Read and write through each session's editor (fs-acp's config: `clientOf`,
     * `maxEditorBytes`, `timeoutMs`; its disk is `local`); `false`: the disk alone.
     */
    editor: z.union([z.literal(false), AcpFileSystem.Config]).default(false),
    /** Load FsPolicy (read before write/edit, refuse stale writes). Off: unconditional tools. */
    policy: z.boolean().default(true),
    /** ToolFs's config: `smallFileBytes`, `indexedFiles`. */
    tools: ToolFs.Config,
    /** ToolSearch's config (`timeoutMs`, `rgPath`): the glob and grep tools; `false`: none. */
    search: z.union([z.literal(false), ToolSearch.Config]).prefault({}),
    /** The permission layer's config (`defaultMode`, `unanswered`); `false`: calls run unasked. */
    permission: z.union([z.literal(false), Permission.Config]).default(false),
  })
  .prefault({})

export type FsStackConfig = z.input<typeof Config>

/** A plugin to load: its label (for the error when it does not start) and the load itself. */
export type PluginStep = readonly [label: string, load: () => Fiber & PromiseLike<Fiber>]

// Cordis' FiberState is a const enum that cannot be imported under isolatedModules.
const FIBER_ACTIVE = 2

export async function apply(ctx: Context, config: FsStackConfig): Promise<void> {
  // Cordis validated `config` against Config when it loaded the plugin: defaults are in.
  const { local, editor, policy, tools, search, permission } = config as z.output<typeof Config>
  const steps: PluginStep[] = [
    editor === false
      ? ['fs-local', () => ctx.plugin(LocalFileSystem, local)]
      : ['fs-acp', () => ctx.plugin(AcpFileSystem, { ...editor, local })],
  ]
  if (policy) steps.push(['fs-policy', () => ctx.plugin(FsPolicy)])
  steps.push(
    ['tools', () => ctx.plugin(ToolRegistry)],
    ['system-prompt', () => ctx.plugin(SystemPrompt)],
    ['tool-fs', () => ctx.plugin(ToolFs, tools)],
  )
  if (search !== false) steps.push(['tool-search', () => ctx.plugin(ToolSearch, search)])
  if (permission !== false) steps.push(['permission', () => ctx.plugin(Permission, permission)])
  await loadInOrder(steps)
}

/**
 * Loads each plugin after the one before is active. A plugin whose injected service is missing
 * resolves at once while still pending, so each fiber's state is checked: the error names the
 * plugin that did not come up instead of leaving a stack that silently lacks it.
 */
export async function loadInOrder(steps: readonly PluginStep[]): Promise<void> {
  for (const [label, load] of steps) {
    const fiber = await load()
    if (fiber.state !== FIBER_ACTIVE) {
      throw new Error(`the ${label} plugin did not start (state ${fiber.state})`)
    }
  }
}
