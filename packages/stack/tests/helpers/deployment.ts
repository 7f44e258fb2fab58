// The default deployment for the integration tests: the stack's file tools (the disk, the
// policy, the registry, the prompt, the file and search tools) on a fresh mkdtemp workspace.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import type { ToolFsConfig } from '@deepseek-ai/dsh-tool-fs'
import type { ToolAgent, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { testSession } from '@deepseek-ai/dsh-tools/testing'
import * as Stack from '../../src/index'
import type { DshStackOptions } from '../../src/index'

/** The stack's file tools on `cwd`: fs-local, fs-policy, tool-fs and tool-search. */
export function fileTools(cwd: string, more: DshStackOptions = {}): DshStackOptions {
  return { fsLocal: { cwd }, fsPolicy: {}, toolFs: {}, toolSearch: {}, ...more }
}

export interface Deployment {
  ctx: Context
  dir: string
  /** The stack's fiber: disposing it unloads every plugin of the stack. */
  stack: Fiber
  agent(id: string, cwd?: string): ToolAgent
  run(agent: ToolAgent, name: string, args: unknown): Promise<ToolExecutionResult>
  close(): Promise<void>
}

export async function deploy(
  options: { policy?: boolean; tools?: ToolFsConfig } = {},
): Promise<Deployment> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-stack-'))
  const ctx = new Context()
  const { fsPolicy, ...rest } = fileTools(dir, { toolFs: options.tools ?? {} })
  const stack = await ctx.plugin(Stack, options.policy === false ? rest : { fsPolicy, ...rest })
  let calls = 0
  return {
    ctx,
    dir,
    stack,
    agent: (id, cwd = dir) => ({ session: testSession({ id, cwd }) }),
    run: (agent, name, args) =>
      ctx.tools.execute({
        callId: `call-${++calls}`,
        name,
        arguments: args,
        session: agent.session,
        agent,
      }),
    async close() {
      await stack.dispose()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** The text a result gives the model. */
export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => block.text).join('')
}
