// The default deployment for the integration tests: the real fs stack on a mkdtemp dir.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import * as FsPolicy from '@deepseek-ai/dsh-fs-policy'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type { ToolAgent, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import * as ToolFs from '../src/index'

export interface Deployment {
  ctx: Context
  dir: string
  toolFs: Awaited<ReturnType<Context['plugin']>>
  agent(id: string, cwd?: string): ToolAgent
  run(agent: ToolAgent | undefined, name: string, args: unknown): Promise<ToolExecutionResult>
  close(): Promise<void>
}

export async function deploy(
  options: { policy?: boolean; config?: ToolFs.Config } = {},
): Promise<Deployment> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-tool-fs-'))
  const ctx = new Context()
  await ctx.plugin(LocalFileSystem, { cwd: dir, maxEditBytes: 64 * 1024 * 1024 })
  if (options.policy ?? true) await ctx.plugin(FsPolicy)
  await ctx.plugin(ToolRegistry, {})
  await ctx.plugin(SystemPrompt, {})
  const toolFs = await ctx.plugin(ToolFs, options.config)
  let calls = 0
  return {
    ctx,
    dir,
    toolFs,
    agent: (id, cwd = dir) => ({ session: { header: { id, cwd } } }),
    run: (agent, name, args) =>
      ctx.tools.execute({ callId: `call-${++calls}`, name, arguments: args, agent }),
    async close() {
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** The text a result gives the model. */
export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => block.text).join('')
}
