// The whole dsh stack as one Cordis function plugin: the file tools (fs-stack: ctx.fs through
// each session's editor over the local disk, the read-before-write policy, the tool registry, the system prompt, the
// read/write/edit tools, the permission layer), the todo tool (tool-plan), the shell tools (the
// sandboxing shell, or the local one with the sandbox off: commands in their own process groups;
// bash, job_output, job_kill), one model, the agent host (storing its sessions when given a
// store), the ACP bridge offering the permission modes, and each session's MCP servers (mcp,
// wired to the bridge's sessions in mcp-sessions.ts), and the project's knowledge (instruction
// files, skills and the skill tool, the person's commands: knowledge, tool-skill). Disposing its fiber
// undoes all of it. It does not speak ACP by itself (see serve in index.ts) and does no
// process-level I/O.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context, Fiber } from 'cordis'
import Agents from '@deepseek-ai/dsh-agent'
import type { SessionStore } from '@deepseek-ai/dsh-agent'
import * as Acp from '@deepseek-ai/dsh-acp'
import * as FsStack from '@deepseek-ai/dsh-fs-stack'
import McpServers from '@deepseek-ai/dsh-mcp'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import OpenAiLlm from '@deepseek-ai/dsh-llm-openai'
import LocalShell from '@deepseek-ai/dsh-shell-local'
import SandboxShell from '@deepseek-ai/dsh-shell-sandbox'
import * as ToolShell from '@deepseek-ai/dsh-tool-shell'
import { PERMISSION_MODES } from '@deepseek-ai/dsh-permission'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'
import * as ToolPlan from '@deepseek-ai/dsh-tool-plan'
import * as McpSessions from './mcp-sessions'
import Knowledge from '@deepseek-ai/dsh-knowledge'
import * as KnowledgeAcp from '@deepseek-ai/dsh-knowledge/acp'
import * as ToolSkill from '@deepseek-ai/dsh-tool-skill'
import NoticeLlm from './notice-llm'
import { readVersion } from './version'

/** Which model answers prompts. */
export type DshModelOptions =
  | {
      kind: 'openai'
      /** None: the key from the environment, else no Authorization header. */
      apiKey?: string
      baseUrl?: string
      model?: string
      /** Tokens a request may hold, whatever the model. */
      contextWindow?: number
    }
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
  /**
   * The command sandbox (shell-sandbox, default on): `enabled: false` runs commands with the
   * local shell, unconfined; `network` lets sandboxed commands reach the network; `bwrap`
   * names the bubblewrap program.
   */
  sandbox?: { enabled?: boolean; network?: boolean; bwrap?: string }
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
  // The plan's latest list stays whole through a compaction (its result is never elided).
  const agents = {
    compaction: { keepTools: ['todo'] },
    ...(options.store !== undefined && { store: options.store }),
  }
  // Each session's MCP servers, over stdio and streamable HTTP (see mcp-sessions.ts).
  const mcpCapabilities = { http: true, sse: false }
  const mcp = options.mcpTimeoutMs === undefined ? {} : { callTimeoutMs: options.mcpTimeoutMs }
  const network = options.sandbox?.network === true
  await FsStack.loadInOrder([
    ['fs-stack', () => ctx.plugin(FsStack, files)],
    ['tool-plan', () => ctx.plugin(ToolPlan)],
    ['shell', () => loadShell(ctx, options)],
    [
      'tool-shell',
      () => ctx.plugin(ToolShell, { outputDir: SHELL_OUTPUT_DIR, sandboxNetwork: network }),
    ],
    ['llm', () => loadModel(ctx, options.model)],
    ['agent', () => ctx.plugin(Agents, agents)],
    ['acp', () => ctx.plugin(Acp, { agentInfo, modes, defaultMode: mode, mcpCapabilities })],
    ['mcp', () => ctx.plugin(McpServers, mcp)],
    ['mcp-sessions', () => ctx.plugin(McpSessions)],
    // The project's knowledge: instruction files, skills (and the skill tool), the person's commands.
    ['knowledge', () => ctx.plugin(Knowledge)],
    ['tool-skill', () => ctx.plugin(ToolSkill)],
    ['knowledge-acp', () => ctx.plugin(KnowledgeAcp)],
  ])
}

/** Where the whole output of a cut command result is kept; sandboxed commands can read it. */
const SHELL_OUTPUT_DIR = join(tmpdir(), 'dsh-shell-output')

/** The sandboxing shell, or the local one when the sandbox is turned off. */
function loadShell(ctx: Context, options: DshOptions): Fiber & PromiseLike<Fiber> {
  const secrets = secretsOf(options.model)
  const sandbox = options.sandbox ?? {}
  if (sandbox.enabled === false) return ctx.plugin(LocalShell, { secrets })
  return ctx.plugin(SandboxShell, {
    secrets,
    visible: [SHELL_OUTPUT_DIR],
    ...(sandbox.bwrap !== undefined && { bwrap: sandbox.bwrap }),
  })
}

/** The keys the app was given: no command's environment holds them. */
function secretsOf(model: DshModelOptions): string[] {
  return model.kind === 'openai' && model.apiKey !== undefined ? [model.apiKey] : []
}

function loadModel(ctx: Context, model: DshModelOptions): Fiber & PromiseLike<Fiber> {
  switch (model.kind) {
    case 'openai':
      return ctx.plugin(OpenAiLlm, {
        ...(model.apiKey !== undefined && { apiKey: model.apiKey }),
        ...(model.contextWindow !== undefined && { contextWindow: model.contextWindow }),
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
