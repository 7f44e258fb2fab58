// The library face of the dsh app: load the whole stack (disk, policy, tools, prompt, model,
// agents, ACP bridge) into a Cordis context and serve ACP on any ndjson stream. An agent host
// embeds dsh with this; the `dsh-acp` bin (bin.ts) is one such host, on stdio.
// It opens no stdio and reads no environment: the caller decides the model and the stream.
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import type * as acp from '@agentclientprotocol/sdk'
import { serveAcp } from '@deepseek-ai/dsh-acp'
import type { AcpServeHandle } from '@deepseek-ai/dsh-acp'
import * as DshStack from '@deepseek-ai/dsh-stack'
import { appStack } from './app-stack'
import type { DshApp } from './app-stack'

export type { DshApp } from './app-stack'
export { appStack } from './app-stack'
export type { DshModelOptions, DshStackOptions } from '@deepseek-ai/dsh-stack'
export type { AcpServeHandle } from '@deepseek-ai/dsh-acp'
export { DshStack }
export { NoticeLlm, NOTICE_TEXT } from '@deepseek-ai/dsh-stack'
export { readVersion } from './version'

/** A loaded dsh stack. */
export interface Dsh {
  /** The context the stack's plugins live in. */
  ctx: Context
  /** The stack's fiber; disposing it unloads every plugin. */
  fiber: Fiber
  /** Serves ACP on one connection until the stream closes; several may run at once. */
  serve(stream: acp.Stream): AcpServeHandle
  /** Unloads the stack (running turns are cancelled). */
  dispose(): Promise<void>
}

/**
 * Loads the app's stack (see ./app-stack) under `parent` (a fresh root context by default).
 * Rejects if a plugin fails.
 */
export async function startDsh(app: DshApp, parent: Context = new Context()): Promise<Dsh> {
  const fiber = await parent.plugin(DshStack, appStack(app))
  return {
    ctx: fiber.ctx,
    fiber,
    serve: (stream) => serveAcp(fiber.ctx, stream),
    dispose: () => fiber.dispose(),
  }
}
