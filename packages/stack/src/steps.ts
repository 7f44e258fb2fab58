// The stack's steps, in the order each plugin needs the ones before it: the file system (the
// disk, or each session's editor over it), the read-before-write policy, the tool registry and
// the system prompt, the jobs seam (with the shell or task tools), the tools (files, search,
// plan, images, shell, web), the permission layer, the model, the agent host, the ACP bridge,
// each session's MCP servers, and the project's knowledge. A step is there when its key is in
// the options (see ./options). Adding a plugin: a key in DshStackOptions, a step here.
import type { Context } from 'cordis'
import * as Acp from '@deepseek-ai/dsh-acp'
import LspDiagnostics from '@deepseek-ai/dsh-diagnostics-lsp'
import Agents from '@deepseek-ai/dsh-agent'
import AcpFileSystem from '@deepseek-ai/dsh-fs-acp'
import type { AcpFsClientOf } from '@deepseek-ai/dsh-fs-acp'
import Jobs from '@deepseek-ai/dsh-jobs'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import * as FsPolicy from '@deepseek-ai/dsh-fs-policy'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import OpenAiLlm from '@deepseek-ai/dsh-llm-openai'
import Knowledge from '@deepseek-ai/dsh-knowledge'
import McpServers from '@deepseek-ai/dsh-mcp'
import * as Permission from '@deepseek-ai/dsh-permission'
import LocalShell from '@deepseek-ai/dsh-shell-local'
import SandboxShell from '@deepseek-ai/dsh-shell-sandbox'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolDiagnostics from '@deepseek-ai/dsh-tool-diagnostics'
import * as ToolFs from '@deepseek-ai/dsh-tool-fs'
import * as ToolImage from '@deepseek-ai/dsh-tool-fs/image'
import * as ToolPlan from '@deepseek-ai/dsh-tool-plan'
import * as ToolSearch from '@deepseek-ai/dsh-tool-search'
import * as ToolSkill from '@deepseek-ai/dsh-knowledge/skill-tool'
import * as ToolShell from '@deepseek-ai/dsh-tool-shell'
import * as ToolWeb from '@deepseek-ai/dsh-tool-web'
import * as ToolTask from '@deepseek-ai/dsh-tool-task'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import Undo from '@deepseek-ai/dsh-undo'
import type { ToolSession } from '@deepseek-ai/dsh-tools'
import WebService from '@deepseek-ai/dsh-web'
import * as WebSearch from '@deepseek-ai/dsh-web/search'
import type { PluginStep } from './load-in-order'
import * as AskSessions from './ask-sessions'
import * as KnowledgeSessions from './knowledge-sessions'
import * as McpSessions from './mcp-sessions'
import * as UndoSessions from './undo-sessions'
import * as WarmUp from './warm-up'
import NoticeLlm from './notice-llm'
import type { DshModelOptions, DshStackOptions } from './options'

type AddStep = (label: string, load: PluginStep[1]) => void

export function stackSteps(ctx: Context, options: DshStackOptions): PluginStep[] {
  const steps: PluginStep[] = []
  const add: AddStep = (label, load) => steps.push([label, load])
  const fileSystem = fileSystemStep(ctx, options)
  if (fileSystem !== undefined) steps.push(fileSystem)
  toolSteps(ctx, options, add)
  hostSteps(ctx, options, add)
  return steps
}

/** The seams, their providers and policies, and the tools that stand on them. */
function toolSteps(ctx: Context, options: DshStackOptions, add: AddStep): void {
  if (options.fsPolicy !== undefined) add('fs-policy', () => ctx.plugin(FsPolicy))
  add('tools', () => ctx.plugin(ToolRegistry))
  add('system-prompt', () => ctx.plugin(SystemPrompt))
  // A session's background work (commands, tasks): job_output and job_kill over what those
  // tools provide into ctx.jobs.
  if (options.toolShell !== undefined || options.toolTask !== undefined) {
    add('jobs', () => ctx.plugin(Jobs))
  }
  if (options.toolFs !== undefined) add('tool-fs', () => ctx.plugin(ToolFs, options.toolFs))
  const { diagnostics } = options
  if (diagnostics !== undefined) {
    // The project's language servers: write and edit add the errors a change made; `diagnostics`.
    add('diagnostics-lsp', () => ctx.plugin(LspDiagnostics, diagnostics))
    add('tool-diagnostics', () => ctx.plugin(ToolDiagnostics))
  }
  const { toolSearch, toolPlan, shellSandbox, shellLocal, toolShell, permission } = options
  if (toolSearch !== undefined) add('tool-search', () => ctx.plugin(ToolSearch, toolSearch))
  if (permission !== undefined) add('permission', () => ctx.plugin(Permission, permission))
  if (toolPlan !== undefined) add('tool-plan', () => ctx.plugin(ToolPlan))
  if (options.toolImage !== undefined) add('tool-image', () => ctx.plugin(ToolImage))
  if (shellSandbox !== undefined) add('shell-sandbox', () => ctx.plugin(SandboxShell, shellSandbox))
  else if (shellLocal !== undefined) add('shell-local', () => ctx.plugin(LocalShell, shellLocal))
  if (toolShell !== undefined) add('tool-shell', () => ctx.plugin(ToolShell, toolShell))
  const { web, webSearch, toolWeb } = options
  if (web !== undefined) add('web', () => ctx.plugin(WebService, web))
  if (web !== undefined && webSearch !== undefined) {
    add('web-search', () => ctx.plugin(WebSearch, webSearch))
  }
  if (web !== undefined && toolWeb !== undefined)
    add('tool-web', () => ctx.plugin(ToolWeb, toolWeb))
}

/** The model, the agent host, the bridge, and what follows each of the bridge's sessions. */
function hostSteps(ctx: Context, options: DshStackOptions, add: AddStep): void {
  const { llm, agents, acp, mcp } = options
  if (llm !== undefined) add('llm', () => loadModel(ctx, llm))
  if (agents !== undefined) add('agent', () => ctx.plugin(Agents, agents))
  if (options.toolTask !== undefined) add('tool-task', () => ctx.plugin(ToolTask))
  if (acp !== undefined) add('acp', () => ctx.plugin(Acp, acp))
  // What a session's first call needs is readied when it opens, off the start's path (./warm-up).
  if (acp !== undefined) add('warm-up', () => ctx.plugin(WarmUp))
  if (acp !== undefined && options.toolAsk !== undefined) {
    // ask_user and exit_plan_mode per session, through the client's forms (./ask-sessions).
    add('ask-sessions', () => ctx.plugin(AskSessions))
  }
  if (mcp !== undefined) {
    add('mcp', () => ctx.plugin(McpServers, mcp))
    if (acp !== undefined) add('mcp-sessions', () => ctx.plugin(McpSessions))
  }
  const { knowledge } = options
  if (knowledge !== undefined && agents !== undefined) {
    // The project's knowledge: instruction files, skills (and the skill tool), the person's
    // commands, offered per session through the bridge.
    add('knowledge', () => ctx.plugin(Knowledge, knowledge))
    add('tool-skill', () => ctx.plugin(ToolSkill))
    if (acp !== undefined) add('knowledge-sessions', () => ctx.plugin(KnowledgeSessions))
  }
  // Last, so its snapshots bracket a call once every gate let it run (./README: undo).
  if (options.undo !== undefined && acp !== undefined && agents !== undefined) {
    add('undo', () => ctx.plugin(Undo, options.undo))
    add('undo-sessions', () => ctx.plugin(UndoSessions))
  }
}

function loadModel(ctx: Context, model: DshModelOptions): ReturnType<PluginStep[1]> {
  switch (model.kind) {
    case 'openai': {
      const { kind: _kind, ...config } = model
      return ctx.plugin(OpenAiLlm, config)
    }
    case 'scripted':
      return ctx.plugin(ScriptedLlm, {
        script: model.script,
        delayMs: model.delayMs ?? 0,
        ...(model.imageInput === true && { imageInput: true }),
      })
    case 'unconfigured':
      return ctx.plugin(NoticeLlm)
  }
}

/** The files: through each session's editor over the disk, or the disk alone. */
function fileSystemStep(ctx: Context, options: DshStackOptions): PluginStep | undefined {
  const { fsLocal, fsAcp } = options
  if (fsLocal === undefined) return undefined
  if (fsAcp === undefined) return ['fs-local', () => ctx.plugin(LocalFileSystem, fsLocal)]
  // Each session reads and writes through its editor (its scope's `files` channel, which the
  // bridge gives) when its client offers the fs methods. A child's calls reach the editor
  // under the session id its cards use (files.forSession).
  const clientOf: AcpFsClientOf = (session) => {
    if (!isToolSession(session)) return undefined
    const files = session.scope.channels.files
    return files?.forSession?.(session) ?? files
  }
  return ['fs-acp', () => ctx.plugin(AcpFileSystem, { ...fsAcp, clientOf, local: fsLocal })]
}

/** A caller's session is a tool session (the file tools pass their call's). */
function isToolSession(session: Parameters<AcpFsClientOf>[0]): session is ToolSession {
  return session !== undefined && 'scope' in session
}
