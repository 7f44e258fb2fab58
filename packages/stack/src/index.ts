// stack: the whole dsh stack as one Cordis function plugin, from one options tree in which each
// plugin's config sits under its own key (./options). The app (acp-agent) and the ACP test
// harness (acp-testing) both load it: the harness with a scripted model, the app with its flags.
// Disposing its fiber unloads all of it. It speaks no ACP by itself (`serveAcp` does, on a
// stream the caller opens) and does no process-level I/O.
import type { Context } from 'cordis'
import { loadInOrder } from './load-in-order'
import type { DshStackOptions } from './options'
import { stackSteps } from './steps'

export const name = 'dsh-stack'

export async function apply(ctx: Context, options: DshStackOptions): Promise<void> {
  await loadInOrder(stackSteps(ctx, options))
}

export { loadInOrder } from './load-in-order'
export type { PluginStep } from './load-in-order'
export type { DshModelOptions, DshStackOptions } from './options'
export { default as NoticeLlm, NOTICE_TEXT } from './notice-llm'
export { appTree } from './app-tree'
export type { DshApp, DshWebOptions } from './app-tree'
