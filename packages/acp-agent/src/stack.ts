// The whole dsh stack as one Cordis function plugin: the file tools (fs-stack: the local disk
// behind ctx.fs, the read-before-write policy, the tool registry, the system prompt, the
// read/write/edit tools), one model, the agent host and the ACP bridge. Disposing its fiber
// undoes all of it. It does not speak ACP by itself (see serve in index.ts) and does no
// process-level I/O.
import type { Context, Fiber } from 'cordis'
import Agents from '@deepseek-ai/dsh-agent'
import * as Acp from '@deepseek-ai/dsh-acp'
import * as FsStack from '@deepseek-ai/dsh-fs-stack'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import OpenAiLlm from '@deepseek-ai/dsh-llm-openai'
import NoticeLlm from './notice-llm'
import { readVersion } from './version'

/** Which model answers prompts. */
export type DshModelOptions =
  | { kind: 'openai'; apiKey: string; baseUrl?: string; model?: string }
  | { kind: 'scripted'; script: LlmScript; delayMs?: number }
  | { kind: 'unconfigured' }

export interface DshOptions {
  /** Base for relative paths outside a session (sessions use their own cwd); default process.cwd(). */
  cwd?: string
  model: DshModelOptions
}

export const name = 'dsh'

export async function apply(ctx: Context, options: DshOptions): Promise<void> {
  const agentInfo = { name: 'dsh', title: 'dsh', version: readVersion() }
  await FsStack.loadInOrder([
    ['fs-stack', () => ctx.plugin(FsStack, { local: { cwd: options.cwd ?? process.cwd() } })],
    ['llm', () => loadModel(ctx, options.model)],
    ['agent', () => ctx.plugin(Agents)],
    ['acp', () => ctx.plugin(Acp, { agentInfo })],
  ])
}

function loadModel(ctx: Context, model: DshModelOptions): Fiber & PromiseLike<Fiber> {
  switch (model.kind) {
    case 'openai':
      return ctx.plugin(OpenAiLlm, {
        apiKey: model.apiKey,
        ...(model.baseUrl !== undefined && { baseUrl: model.baseUrl }),
        ...(model.model !== undefined && { model: model.model }),
      })
    case 'scripted':
      return ctx.plugin(ScriptedLlm, {
        script: model.script,
        ...(model.delayMs !== undefined && { delayMs: model.delayMs }),
      })
    case 'unconfigured':
      return ctx.plugin(NoticeLlm)
  }
}
