// The shell tools on a real stack: the tool registry, the system prompt, the local disk (for
// the permission layer's real paths), the permission layer, the local shell, tool-shell and
// the jobs seam (job_output, job_kill), in a fresh mkdtemp workspace. Calls go through
// ctx.tools.execute with a session of a chosen mode; questions are answered by `reply` and
// recorded.
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import Jobs from '@deepseek-ai/dsh-jobs'
import * as Permission from '@deepseek-ai/dsh-permission'
import LocalShell from '@deepseek-ai/dsh-shell-local'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type {
  ToolExecution,
  ToolExecutionResult,
  ToolPermissionAnswer,
  ToolPermissionRequest,
  ToolSession,
} from '@deepseek-ai/dsh-tools'
import * as ToolShell from '../../src/index'
import { testSession } from '@deepseek-ai/dsh-tools/testing'

export interface ShellStack {
  ctx: Context
  root: string
  outputDir: string
  /** The questions asked so far. */
  asked: ToolPermissionRequest[]
  /** The option chosen when asked (default `allow_once`). */
  reply: string
  /** The session's lifetime: aborting it is closing the session. */
  lifetime: AbortController
  call(
    name: string,
    args: Record<string, unknown>,
    options?: {
      mode?: string
      callId?: string
      signal?: AbortSignal
      report?: ToolExecution['report']
    },
  ): Promise<ToolExecutionResult>
  /** Disposes tool-shell alone. */
  disposeTools(): Promise<void>
  cleanup(): Promise<void>
}

let calls = 0

export async function shellStack(
  config: Omit<ToolShell.ToolShellConfig, 'outputDir'> = {},
): Promise<ShellStack> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-tool-shell-')))
  const outputDir = join(root, '.output')
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(LocalFileSystem, { cwd: root })
  await ctx.plugin(Permission)
  const shell = await ctx.plugin(LocalShell, { killGraceMs: 500 })
  const tools = await ctx.plugin(ToolShell, { outputDir, batchMs: 50, ...config })
  await ctx.plugin(Jobs)
  const sessions: Record<string, ToolSession> = {}
  const stack: ShellStack = {
    ctx,
    root,
    outputDir,
    asked: [],
    reply: 'allow_once',
    lifetime: new AbortController(),
    async call(name, args, options = {}) {
      // One session per mode, kept: the permission layer remembers per session object.
      const mode = options.mode ?? 'full-access'
      const header = { id: `session-${mode}`, cwd: root, roots: [root], mode }
      const session = (sessions[mode] ??= testSession({ ...header, channels: { ask } }))
      return ctx.tools.execute({
        callId: options.callId ?? `call-${++calls}`,
        name,
        arguments: args,
        session,
        agent: { session, lifetime: stack.lifetime.signal },
        ...(options.signal && { signal: options.signal }),
        ...(options.report && { report: options.report }),
      })
    },
    disposeTools: async () => {
      await tools.dispose()
    },
    cleanup: async () => {
      stack.lifetime.abort()
      await shell.dispose()
      await rm(root, { recursive: true, force: true })
    },
  }
  /** The sessions' person: what they are asked, and the answer the test set. */
  async function ask(request: ToolPermissionRequest): Promise<ToolPermissionAnswer> {
    stack.asked.push(request)
    return { outcome: 'selected', optionId: stack.reply }
  }
  return stack
}

export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => block.text).join('\n')
}
