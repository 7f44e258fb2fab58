// The whole dsh stack as one Cordis function plugin: the file tools (fs-stack: ctx.fs through
// each session's editor over the local disk, the read-before-write policy, the tool registry, the system prompt, the
// read/write/edit tools, the permission layer), one model, the agent host (storing its sessions
// when given a store), the ACP bridge offering the permission modes, and each session's MCP
// servers (mcp, wired to the bridge's sessions in mcp-sessions.ts). Disposing its fiber
// undoes all of it. It does not speak ACP by itself (see serve in index.ts) and does no
// process-level I/O.
import type { Context, Fiber } from 'cordis'
import Agents from '@deepseek-ai/dsh-agent'
import type { SessionStore } from '@deepseek-ai/dsh-agent'
import * as Acp from '@deepseek-ai/dsh-acp'
import * as FsStack from '@deepseek-ai/dsh-fs-stack'
import McpServers from '@deepseek-ai/dsh-mcp'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import OpenAiLlm from '@deepseek-ai/dsh-llm-openai'
import { PERMISSION_MODES } from '@deepseek-ai/dsh-permission'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'
import * as McpSessions from './mcp-sessions'
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
  /** The permission mode new sessions start in (default `ask`). */
  mode?: PermissionModeId
  /** The longest wait for one editor request (fs/read_text_file, fs/write_text_file), in ms. */
  editorTimeoutMs?: number
  /** Where sessions are stored, so an editor can list, load and resume them; none: memory only. */
  store?: SessionStore
  /** The longest wait for one MCP tool call, in ms (default 60 s). */
  mcpTimeoutMs?: number
}

export const name = 'dsh'

export async function apply(ctx: Context, options: DshOptions): Promise<void> {
  const agentInfo = { name: 'dsh', title: 'dsh', version: readVersion() }
  const mode = options.mode ?? 'ask'
  // Each session reads and writes through its editor when the client offers the fs methods.
  const editor = {
    clientOf: Acp.filesOfSession(ctx),
    ...(options.editorTimeoutMs !== undefined && { timeoutMs: options.editorTimeoutMs }),
  }
  const files = {
    local: { cwd: options.cwd ?? process.cwd() },
    editor,
    permission: { defaultMode: mode },
  }
  const modes = [...PERMISSION_MODES]
  // Each session's MCP servers, over stdio and streamable HTTP (see mcp-sessions.ts).
  const mcpCapabilities = { http: true, sse: false }
  const mcp = options.mcpTimeoutMs === undefined ? {} : { callTimeoutMs: options.mcpTimeoutMs }
  await FsStack.loadInOrder([
    ['fs-stack', () => ctx.plugin(FsStack, files)],
    ['llm', () => loadModel(ctx, options.model)],
    ['agent', () => ctx.plugin(Agents, options.store ? { store: options.store } : {})],
    ['acp', () => ctx.plugin(Acp, { agentInfo, modes, defaultMode: mode, mcpCapabilities })],
    ['mcp', () => ctx.plugin(McpServers, mcp)],
    ['mcp-sessions', () => ctx.plugin(McpSessions)],
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
