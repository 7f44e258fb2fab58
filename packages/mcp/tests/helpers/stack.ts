// A real stack for the MCP tests: the tool registry, the system prompt, the local disk, the
// permission layer (with a `tools/ask` listener that records each question and allows it) and
// ctx.mcp; a mkdtemp workspace; the test server's script and a log file it writes to.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from 'cordis'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import * as Permission from '@deepseek-ai/dsh-permission'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type {
  ToolExecution,
  ToolExecutionResult,
  ToolPermissionAnswer,
  ToolPermissionRequest,
  ToolSession,
} from '@deepseek-ai/dsh-tools'
import { testSession } from '@deepseek-ai/dsh-tools/testing'
import McpServers from '../../src/index'
import type { McpConfig, McpNotice, McpServerConfigInput, McpSessionHandle } from '../../src/index'

export const SERVER_SCRIPT = fileURLToPath(new URL('../fixtures/stdio-server.mjs', import.meta.url))

export interface McpStack {
  ctx: Context
  cwd: string
  log: string
  asked: ToolPermissionRequest[]
  /** The option the asker picks (default allow_once). */
  answer: 'allow_once' | 'allow_always'
  notices: McpNotice[]
  /** Opens session `id`'s servers (the test server over stdio by default). */
  open(id: string, servers?: McpServerConfigInput[]): McpSessionHandle
  call(
    id: string,
    name: string,
    args?: unknown,
    options?: CallOptions,
  ): Promise<ToolExecutionResult>
  /** The lines the test server noted (pids, cancellations). */
  logged(): Promise<string[]>
  cleanup(): Promise<void>
}

export interface CallOptions {
  mode?: string
  signal?: AbortSignal
  /** Told the call's progress (asked, started, status), as a host is. */
  report?: ToolExecution['report']
}

export function stdioServer(
  cwdLog: { log: string },
  env: Record<string, string> = {},
): McpServerConfigInput {
  return {
    name: 'notes',
    command: process.execPath,
    args: [SERVER_SCRIPT],
    env: { MCP_TEST_LOG: cwdLog.log, ...env },
  }
}

export async function makeStack(config: McpConfig = {}): Promise<McpStack> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'dsh-mcp-')))
  const cwd = join(base, 'work')
  const log = join(base, 'server.log')
  await mkdir(cwd)
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(LocalFileSystem, { cwd })
  await ctx.plugin(Permission, { defaultMode: 'ask' })
  const mcp = ctx.plugin(McpServers, config)
  await mcp
  const asked: ToolPermissionRequest[] = []
  // Each session's person: what they are asked, and the answer the test set.
  const ask = async (request: ToolPermissionRequest): Promise<ToolPermissionAnswer> => {
    asked.push(request)
    const option = request.options.find((offered) => offered.kind === stack.answer)
    return { outcome: 'selected', optionId: option?.optionId ?? 'none offered' }
  }
  const notices: McpNotice[] = []
  const handles: McpSessionHandle[] = []
  const sessions = new Map<string, ToolSession>()
  const stack: McpStack = {
    ctx,
    cwd,
    log,
    asked,
    answer: 'allow_once',
    notices,
    open(id, servers = [stdioServer({ log })]) {
      const handle = ctx.mcp.open({ id, cwd, servers, notify: (notice) => notices.push(notice) })
      handles.push(handle)
      return handle
    },
    call(id, name, args = {}, options = {}) {
      // One session object per id, as an agent has: the permission layer keeps its state by it.
      const session = sessions.get(id) ?? testSession({ id, cwd, roots: [cwd], channels: { ask } })
      sessions.set(id, session)
      session.header.mode = options.mode ?? 'ask'
      const exec: ToolExecution = {
        callId: `call-${name}`,
        name,
        arguments: args,
        session,
        ...(options.signal && { signal: options.signal }),
        ...(options.report && { report: options.report }),
      }
      return ctx.tools.execute(exec)
    },
    async logged() {
      const text = await readFile(log, 'utf8').catch(() => '')
      return text.split('\n').filter((line) => line !== '')
    },
    async cleanup() {
      await Promise.all(handles.map((handle) => handle.close()))
      await mcp.dispose()
      await rm(base, { recursive: true, force: true })
    },
  }
  return stack
}

/** The pids the test server wrote to its log. */
export async function serverPids(stack: McpStack): Promise<number[]> {
  return (await stack.logged())
    .filter((line) => line.startsWith('pid '))
    .map((line) => Number(line.slice(4)))
}

/** The pid of the child the test server started (MCP_TEST_FORK), once it noted it. */
export async function grandchildPid(stack: McpStack, label = 'grandchild'): Promise<number> {
  let pid: number | undefined
  await eventually(async () => {
    const line = (await stack.logged()).find((logged) => logged.startsWith(`${label} `))
    pid = line === undefined ? undefined : Number(line.slice(label.length + 1))
    return pid !== undefined
  })
  return pid!
}

/** True while a process with this pid runs (and is not a zombie of ours). */
export function isRunning(pid: number): boolean {
  try {
    // A zombie (state Z) has ended; only its parent has not read its exit yet.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    // No /proc entry: gone, unless there is no /proc at all (not Linux: the signal tells).
    if (existsSync('/proc/self')) return false
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Polls `check` until it holds or `ms` pass. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 5000,
): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the condition did not hold in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
