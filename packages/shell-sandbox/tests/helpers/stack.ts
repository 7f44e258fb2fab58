// The shell tools on a real stack with the sandbox: the tool registry, the system prompt, the
// local disk, the permission layer, SandboxShell, tool-shell and the jobs seam, in a fresh mkdtemp workspace
// beside an `outside` folder no root covers (not under /tmp: see testsDir). Calls go through ctx.tools.execute with a session
// of a chosen mode; questions are answered by `reply` and recorded, and so are notices.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Context } from 'cordis'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import Jobs from '@deepseek-ai/dsh-jobs'
import * as Permission from '@deepseek-ai/dsh-permission'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolShell from '@deepseek-ai/dsh-tool-shell'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type {
  ToolExecutionResult,
  ToolNotice,
  ToolPermissionRequest,
  ToolSessionChannels,
  ToolSession,
} from '@deepseek-ai/dsh-tools'
import SandboxShell from '../../src/index'
import type { SandboxShellConfig } from '../../src/index'
import { testSession } from '@deepseek-ai/dsh-tools/testing'

export interface SandboxStack {
  ctx: Context
  shell: SandboxShell
  /** The session's one root. */
  root: string
  /** A folder beside the root, outside it. */
  outside: string
  asked: ToolPermissionRequest[]
  notices: { session: string; notice: ToolNotice }[]
  reply: string
  call(
    name: string,
    args: Record<string, unknown>,
    options?: { mode?: string; session?: string },
  ): Promise<ToolExecutionResult>
  cleanup(): Promise<void>
}

let calls = 0

/** Outside /tmp wherever the checkout is. */
export const SANDBOX_TESTS_DIR = '/var/tmp/dsh-sandbox-tests'

/**
 * Where the tests' folders go: /var/tmp, not the OS temp dir, since the sandbox gives a command
 * a private /tmp (a path under the real one is not even there) — and not beside the sources
 * either, which may themselves lie under /tmp.
 */
export async function testsDir(): Promise<string> {
  const dir = SANDBOX_TESTS_DIR
  await mkdir(dir, { recursive: true })
  return dir
}

export async function sandboxStack(
  options: { shell?: SandboxShellConfig; sandboxNetwork?: boolean; outputDir?: string } = {},
): Promise<SandboxStack> {
  const base = await realpath(await mkdtemp(join(await testsDir(), 'run-')))
  const root = join(base, 'root')
  const outside = join(base, 'outside')
  await mkdir(root)
  await mkdir(outside)
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(LocalFileSystem, { cwd: root })
  await ctx.plugin(Permission)
  const fiber = await ctx.plugin(SandboxShell, { killGraceMs: 500, ...options.shell })
  const shell = ctx.shell as SandboxShell
  await ctx.plugin(ToolShell, {
    outputDir: options.outputDir ?? join(base, 'output'),
    batchMs: 50,
    sandboxNetwork: options.sandboxNetwork ?? false,
  })
  await ctx.plugin(Jobs)
  const sessions: Record<string, ToolSession> = {}
  const lifetime = new AbortController()
  const stack: SandboxStack = {
    ctx,
    shell,
    root,
    outside,
    asked: [],
    notices: [],
    reply: 'allow_once',
    async call(name, args, callOptions = {}) {
      const mode = callOptions.mode ?? 'auto-edit'
      const id = callOptions.session ?? `session-${mode}`
      const session = (sessions[id] ??= testSession({
        id,
        cwd: root,
        roots: [root],
        mode,
        channels: personOf(id),
      }))
      return ctx.tools.execute({
        callId: `call-${++calls}`,
        name,
        arguments: args,
        session,
        agent: { session, lifetime: lifetime.signal },
      })
    },
    cleanup: async () => {
      lifetime.abort()
      await fiber.dispose()
      await rm(base, { recursive: true, force: true })
    },
  }
  /** Session `id`'s person: what they are asked and told. */
  function personOf(id: string): ToolSessionChannels {
    return {
      ask: async (request) => {
        stack.asked.push(request)
        return { outcome: 'selected', optionId: stack.reply }
      },
      notice: (notice) => void stack.notices.push({ session: id, notice }),
    }
  }
  return stack
}

export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => block.text).join('\n')
}
