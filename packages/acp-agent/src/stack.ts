// The whole dsh stack as one Cordis function plugin: the local disk behind ctx.fs, the
// read-before-write policy, the tool registry, the system prompt, the read/write/edit tools,
// one model, the agent host and the ACP bridge. Disposing its fiber undoes all of it.
// It does not speak ACP by itself (see serve in index.ts) and does no process-level I/O.
import type { Context, Fiber } from 'cordis'
import Agents from '@deepseek-ai/dsh-agent'
import * as Acp from '@deepseek-ai/dsh-acp'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import * as FsPolicy from '@deepseek-ai/dsh-fs-policy'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import OpenAiLlm from '@deepseek-ai/dsh-llm-openai'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolFs from '@deepseek-ai/dsh-tool-fs'
import ToolRegistry from '@deepseek-ai/dsh-tools'
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

// Cordis' FiberState is a const enum that cannot be imported under isolatedModules.
const FIBER_ACTIVE = 2

export async function apply(ctx: Context, options: DshOptions): Promise<void> {
  // Dependency order, each awaited: a plugin whose injected service is missing would resolve
  // at once while still pending, so the check below names any plugin that did not come up.
  const steps: [string, () => Fiber & PromiseLike<Fiber>][] = [
    [
      'fs-local',
      () =>
        ctx.plugin(
          LocalFileSystem,
          LocalFileSystem.Config.parse({ cwd: options.cwd ?? process.cwd() }),
        ),
    ],
    ['fs-policy', () => ctx.plugin(FsPolicy)],
    ['tools', () => ctx.plugin(ToolRegistry, {})],
    ['system-prompt', () => ctx.plugin(SystemPrompt, {})],
    ['tool-fs', () => ctx.plugin(ToolFs, {})],
    ['llm', () => loadModel(ctx, options.model)],
    ['agent', () => ctx.plugin(Agents, Agents.Config.parse({}))],
    [
      'acp',
      () => ctx.plugin(Acp, { agentInfo: { name: 'dsh', title: 'dsh', version: readVersion() } }),
    ],
  ]
  for (const [label, load] of steps) {
    const fiber = await load()
    if (fiber.state !== FIBER_ACTIVE) {
      throw new Error(`dsh: the ${label} plugin did not start (state ${fiber.state})`)
    }
  }
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
