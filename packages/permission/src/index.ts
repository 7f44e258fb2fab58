// permission: a provider-neutral permission layer for tool calls. A function plugin on the
// `tools/execute` waterfall that, per the session's mode and whether the call stays inside
// the session's roots (real paths, from ctx.fs), runs the call, refuses it, or asks a person
// through the session's `ask` channel, which a UI (the ACP bridge) gives its own sessions.
// Not a sandbox (a tool may still touch what it presents no location for) and no UI protocol.
import type { Context } from 'cordis'
import { z } from 'zod'
import type {} from '@deepseek-ai/dsh-fs' // for its augmentation: ctx.fs
import { configOf, untraced } from '@deepseek-ai/dsh-tools'
import { PermissionGate } from './gate'
import { PERMISSION_MODE_IDS } from './modes'

export const name = 'permission'

export const inject = ['tools', 'fs']

export const Config = z
  .object({
    /** The mode of a session whose header names none (or an unknown one), and of calls with no session. */
    defaultMode: z.enum(PERMISSION_MODE_IDS).default('ask'),
    /** What a call that needs asking gets when its session has no `ask` channel. */
    unanswered: z.enum(['deny', 'allow']).default('deny'),
  })
  .prefault({})

export type PermissionConfig = z.input<typeof Config>

export function apply(ctx: Context, config: PermissionConfig): void {
  const host = { tools: untraced(ctx.tools), fs: untraced(ctx.fs) }
  const gate = new PermissionGate(host, configOf(Config, config))
  // Prepended, so this is the outermost wrapper whatever the load order: another listener
  // (the ACP bridge's) opens the call's card as "running" only once a call gets past this one.
  ctx.on('tools/execute', (exec, next) => gate.execute(exec, next), { prepend: true })
  // A session that opens gets its roots' real paths now, not at its first call.
  ctx.on('tools/warm-up', (agent) => void gate.warmUp(agent.session))
  ctx.effect(() => () => gate.clear(), 'permission state')
}

export { PERMISSION_MODES, isPermissionModeId, modeName } from './modes'
export type { PermissionMode, PermissionModeId } from './modes'
export { PERMISSION_ERROR_CODES, PermissionError, isPermissionError } from './errors'
export type { PermissionErrorCode } from './errors'
