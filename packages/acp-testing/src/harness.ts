// The ACP test harness: a Cordis context with the tool registry, the system prompt, the
// scripted model, the agent host and the bridge (offering the permission modes) — and, with
// `withFs`, the whole fs stack (the real LocalFileSystem, FsPolicy, the file tools and the
// permission layer) on a temporary workspace, and with `withShell` the shell tools — connected to the SDK's own client over
// in-memory ndjson streams. It records every `session/update` and permission request the
// client receives and every frame each side writes, so tests can check what went on the wire
// (`assertAgentFramesValid` from ./schema checks the frames against the ACP schema).
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { methods, ndJsonStream } from '@agentclientprotocol/sdk'
import type {
  ClientCapabilities,
  ClientConnection,
  ClientContext,
  ContentBlock,
  InitializeResponse,
  PromptResponse,
  RequestPermissionRequest,
  SessionNotification,
  SessionUpdate,
} from '@agentclientprotocol/sdk'
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import * as Acp from '@deepseek-ai/dsh-acp'
import { filesOfSession } from '@deepseek-ai/dsh-acp'
import type { AcpServeHandle } from '@deepseek-ai/dsh-acp'
import Agents from '@deepseek-ai/dsh-agent'
import type { SessionStore } from '@deepseek-ai/dsh-agent'
import * as FsStack from '@deepseek-ai/dsh-fs-stack'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import { PERMISSION_MODES } from '@deepseek-ai/dsh-permission'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'
import LocalShell from '@deepseek-ai/dsh-shell-local'
import SandboxShell from '@deepseek-ai/dsh-shell-sandbox'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolPlan from '@deepseek-ai/dsh-tool-plan'
import * as ToolShell from '@deepseek-ai/dsh-tool-shell'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import Knowledge from '@deepseek-ai/dsh-knowledge'
import * as KnowledgeAcp from '@deepseek-ai/dsh-knowledge/acp'
import * as ToolSkill from '@deepseek-ai/dsh-tool-skill'
import { HarnessClient } from './client'
import { HarnessEditor } from './editor'
import type { HarnessEditorOptions } from './editor'
import type { PermissionAnswerer } from './client'
import { FramePipes } from './frames'
import type { AcpFrame } from './frames'

export interface AcpHarnessOptions {
  /** What the scripted model says, one turn per model request (all sessions share it). */
  script: LlmScript
  /**
   * Load the real fs stack on the workspace, as the app does: the disk under the editor
   * provider (fs-acp, routing each session to its client's editor when it offers the fs
   * methods), FsPolicy, ToolFs and the permission layer.
   */
  withFs?: boolean
  /** The mode new sessions start in (default `ask`: writes and edits are asked about). */
  mode?: PermissionModeId
  /** How the client answers `session/request_permission` (default: the `allow_once` option). */
  answer?: PermissionAnswerer
  /**
   * The client is an editor offering `fs/read_text_file` / `fs/write_text_file` (as far as
   * `read`/`write` say), which the agent then reads and writes through; `timeoutMs` is the
   * agent's wait for one editor request.
   */
  editor?: HarnessEditorOptions & { timeoutMs?: number }
  /** Milliseconds the scripted model waits between stream events (slows turns down). */
  delayMs?: number
  /** The agent host's step limit per turn. */
  maxSteps?: number
  /** Where the agent host stores sessions (load, list, resume are offered with one). */
  store?: SessionStore
  /** Mount the todo tool (tool-plan), as the app does; default false: only the tools asked for. */
  withPlan?: boolean
  /**
   * Load the shell tools as the app does: the local shell (ctx.shell: process groups; its
   * SIGTERM-to-SIGKILL grace, `killGraceMs`) and bash, job_output, job_kill.
   */
  withShell?: boolean | { killGraceMs?: number }
  /**
   * With `withShell`, the sandboxing shell as the app loads it (shell-sandbox) instead of the
   * local one: `bwrap` names the program (a missing one forces the fallback), `network` is
   * the app's `--sandbox-network`.
   */
  sandbox?: boolean | { bwrap?: string; network?: boolean }
  /** The client advertises `session.notices`: notices come as `notice` updates. */
  notices?: boolean
  /** The client advertises Zed's `_meta.terminal_output`: commands stream as terminals. */
  terminalOutput?: boolean
  /**
   * Load the project's knowledge as the app does (knowledge, tool-skill, knowledge-acp): the
   * instruction files, skills and the person's commands of the workspace; `home` and
   * `configHome` name the person's places (default: HOME and XDG_CONFIG_HOME).
   */
  withKnowledge?: boolean | { home?: string; configHome?: string }
  /** Runs after the registry and prompt are loaded: register extra tools here (`ctx.tools`). */
  setup?: (ctx: Context) => void | Promise<void>
}

export interface AcpHarness {
  /** The context everything is loaded in (`ctx.tools`, `ctx.agents`, `ctx.acp`, `ctx.fs`). */
  ctx: Context
  /** A fresh temporary directory (real path), removed by `dispose()`. */
  workspace: string
  /** The SDK client's connection; `client.agent` calls agent-side methods. */
  client: ClientConnection
  /** Shortcut for `client.agent`. */
  agent: ClientContext
  /** The bridge's side of the connection. */
  server: AcpServeHandle
  /** The `initialize` answer (the harness initializes before returning). */
  initialized: InitializeResponse
  /** Every `session/update` the client received, in arrival order. */
  updates: SessionNotification[]
  /** Every `session/request_permission` the client received, in arrival order. */
  permissionRequests: RequestPermissionRequest[]
  /** The client's editor (its buffers and the requests it served), with `editor`. */
  editor: HarnessEditor | undefined
  /** Answers the permission requests from now on. */
  answerWith(answer: PermissionAnswerer): void
  /** Every frame either side wrote, in order (`from: 'agent' | 'client'`). */
  frames: AcpFrame[]
  /** The frames the bridge (agent side) wrote. */
  agentFrames(): AcpFrame[]
  /** The updates of one session, in order. */
  updatesOf(sessionId: string): SessionUpdate[]
  /** `session/new` on `cwd` (default: the workspace) → the session id. */
  newSession(cwd?: string, additionalDirectories?: string[]): Promise<string>
  /** `session/set_mode`. */
  setMode(sessionId: string, modeId: string): Promise<void>
  /** `session/prompt` with one text block (or the blocks given). */
  prompt(sessionId: string, prompt: string | ContentBlock[]): Promise<PromptResponse>
  /** `session/cancel`. */
  cancel(sessionId: string): Promise<void>
  /** Resolves with the first update (already received or coming) that matches. */
  waitForUpdate(match: (n: SessionNotification) => boolean): Promise<SessionNotification>
  /** Resolves with the first agent frame (already written or coming) that matches. */
  waitForAgentFrame(match: (frame: AcpFrame) => boolean): Promise<AcpFrame>
  /** Writes raw bytes into the bridge's input, as a misbehaving client would. */
  writeRaw(text: string): void
  /** The client goes away mid-whatever; resolves when the bridge has cleaned up. */
  disconnect(): Promise<void>
  /** Disconnects, unloads every plugin and removes the workspace. */
  dispose(): Promise<void>
}

async function loadStack(root: Context, options: AcpHarnessOptions, workspace: string) {
  return root.plugin({
    name: 'acp-harness',
    apply: async (ctx: Context) => {
      if (options.withFs) {
        const permission = { defaultMode: options.mode ?? 'ask' }
        // As the app does: the agent reads and writes through each session's editor when its
        // client offers the fs methods, else the disk.
        const editor = {
          clientOf: filesOfSession(ctx),
          ...(options.editor?.timeoutMs !== undefined && { timeoutMs: options.editor.timeoutMs }),
        }
        await ctx.plugin(FsStack, { local: { cwd: workspace }, permission, editor })
      } else {
        await ctx.plugin(ToolRegistry)
        await ctx.plugin(SystemPrompt)
      }
      if (options.withPlan) await ctx.plugin(ToolPlan)
      if (options.withShell) {
        const grace = options.withShell === true ? {} : options.withShell
        const sandbox = options.sandbox === true ? {} : options.sandbox
        const outputDir = join(workspace, '.dsh-output')
        if (sandbox === undefined || sandbox === false) await ctx.plugin(LocalShell, grace)
        else {
          const bwrap = sandbox.bwrap === undefined ? {} : { bwrap: sandbox.bwrap }
          await ctx.plugin(SandboxShell, { ...grace, ...bwrap, visible: [outputDir] })
        }
        const sandboxNetwork =
          sandbox !== undefined && sandbox !== false && sandbox.network === true
        await ctx.plugin(ToolShell, { outputDir, sandboxNetwork })
      }
      const setup = options.setup
      if (setup) await ctx.plugin({ name: 'acp-harness-setup', inject: ['tools'], apply: setup })
      await ctx.plugin(ScriptedLlm, { script: options.script, delayMs: options.delayMs ?? 0 })
      await ctx.plugin(Agents, {
        maxSteps: options.maxSteps ?? 50,
        ...(options.store && { store: options.store }),
      })
      await ctx.plugin(Acp, { modes: [...PERMISSION_MODES], defaultMode: options.mode ?? 'ask' })
      // The project's knowledge, as the app loads it: instruction files, skills, commands.
      if (options.withKnowledge) {
        await ctx.plugin(Knowledge, options.withKnowledge === true ? {} : options.withKnowledge)
        await ctx.plugin(ToolSkill)
        await ctx.plugin(KnowledgeAcp)
      }
    },
  })
}

export async function createAcpHarness(options: AcpHarnessOptions): Promise<AcpHarness> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'dsh-acp-')))
  // The root context reads every service of the stack without declaring injections.
  const ctx = new Context()
  const fiber: Fiber = await loadStack(ctx, options, workspace)
  const log = new FramePipes()
  const server = ctx.acp.serve(ndJsonStream(log.agentOutput, log.agentInput))
  const editor = options.editor && new HarnessEditor(options.editor)
  const stream = ndJsonStream(log.clientOutput, log.clientInput)
  const sdk = new HarnessClient(stream, options.answer, editor)
  const client = sdk.connection
  const clientCapabilities: ClientCapabilities = {
    ...(editor && { fs: editor.capabilities }),
    ...(options.terminalOutput && { _meta: { terminal_output: true } }),
    ...(options.notices && { session: { notices: {} } }),
  }
  const initialized = await client.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities,
  })

  const disconnect = async () => {
    client.close()
    log.endClientOutput()
    await server.closed
  }

  return {
    ctx,
    workspace,
    client,
    agent: client.agent,
    server,
    initialized,
    updates: sdk.updates,
    permissionRequests: sdk.permissionRequests,
    editor,
    answerWith: (answer) => {
      sdk.answer = answer
    },
    frames: log.frames,
    agentFrames: () => log.frames.filter((frame) => frame.from === 'agent'),
    updatesOf: (sessionId) =>
      sdk.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update),
    newSession: async (cwd = workspace, additionalDirectories) => {
      const response = await client.agent.request(methods.agent.session.new, {
        cwd,
        mcpServers: [],
        ...(additionalDirectories && { additionalDirectories }),
      })
      return response.sessionId
    },
    setMode: async (sessionId, modeId) => {
      await client.agent.request(methods.agent.session.setMode, { sessionId, modeId })
    },
    prompt: (sessionId, prompt) =>
      client.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt,
      }),
    cancel: (sessionId) => client.agent.notify(methods.agent.session.cancel, { sessionId }),
    waitForUpdate: (match) => sdk.waitForUpdate(match),
    waitForAgentFrame: (match) =>
      log.recorder.waitFor((frame) => frame.from === 'agent' && match(frame)),
    writeRaw: (text) => log.writeRaw(text),
    disconnect,
    dispose: async () => {
      await disconnect()
      await fiber.dispose()
      await rm(workspace, { recursive: true, force: true })
    },
  }
}
