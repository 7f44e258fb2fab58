// The ACP test harness: the app's stack (the `stack` package, from one options tree) with a
// scripted model (or the OpenAI-compatible one, pointed at a server the test runs), connected
// to the SDK's own client over in-memory ndjson streams. Always the tool registry, the system
// prompt, the agent host and the bridge (offering the permission modes); with `withFs` the file
// tools as the app loads them (the disk under each session's editor, FsPolicy, read/write/edit,
// glob/grep, the permission layer) on a temporary workspace; `withPlan` the todo tool;
// `withShell` the shell tools. It records every `session/update` and permission request the
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
  AnyMessage,
  Stream,
} from '@agentclientprotocol/sdk'
import type {
  ClientCapabilities as UnstableClientCapabilities,
  SessionNotification as UnstableSessionNotification,
} from '@agentclientprotocol/sdk/unstable'
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import type { AcpServeHandle } from '@deepseek-ai/dsh-acp'
import type { SessionStore } from '@deepseek-ai/dsh-agent'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import { PERMISSION_MODES } from '@deepseek-ai/dsh-permission'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'
import * as DshStack from '@deepseek-ai/dsh-stack'
import type { DshModelOptions, DshStackOptions } from '@deepseek-ai/dsh-stack'
import type { WebResolver } from '@deepseek-ai/dsh-web'
import { HarnessClient } from './client'
import { HarnessEditor } from './editor'
import type { HarnessEditorOptions } from './editor'
import type { PermissionAnswerer } from './client'
import { FramePipes } from './frames'
import type { AcpFrame } from './frames'

export interface AcpHarnessOptions {
  /** What the scripted model says, one turn per model request (all sessions share it). */
  script?: LlmScript
  /**
   * The OpenAI-compatible model (llm-openai) with this config in place of the scripted one,
   * as the app loads it: point `baseUrl` at a model server on 127.0.0.1.
   */
  openai?: OpenAiModelOptions
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
  /** Mount the task tool (tool-task), as the app does. */
  withTask?: boolean
  /** Mount the todo tool (tool-plan), as the app does; default false: only the tools asked for. */
  withPlan?: boolean
  /**
   * Images: the scripted model takes them (`imageInput`), and with `withFs` the read_image
   * tool (tool-image) is mounted, as the app does.
   */
  withImages?: boolean
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
  /**
   * The client advertises ACP's unstable subagent sessions (`clientCapabilities.subagents`):
   * the frames are then checked against the unstable schema, and the `subagent_update`s it
   * receives are kept in `subagentUpdates` (the SDK's stable client, the harness's, cannot take
   * them).
   */
  subagents?: boolean
  /** The client advertises Zed's `_meta.terminal_output`: commands stream as terminals. */
  terminalOutput?: boolean
  /**
   * Load the web tools as the app does (web, web-search, tool-web): `allowPrivate` is the app's
   * `--web-allow-private`, `searxngUrl` its `--web-search-url`; `resolver` replaces the
   * system's; no proxy from the environment.
   */
  web?: { allowPrivate?: boolean; resolver?: WebResolver; searxngUrl?: string }
  /**
   * Load the project's knowledge as the app does (knowledge, tool-skill, knowledge-acp): the
   * instruction files, skills and the person's commands of the workspace; `home` and
   * `configHome` name the person's places (default: HOME and XDG_CONFIG_HOME).
   */
  withKnowledge?: boolean | { home?: string; configHome?: string }
  /** Runs after the registry and prompt are loaded: register extra tools here (`ctx.tools`). */
  setup?: (ctx: Context) => void | Promise<void>
}

/** The OpenAI-compatible model's config, as the stack's `llm` key takes it. */
export type OpenAiModelOptions = Omit<Extract<DshModelOptions, { kind: 'openai' }>, 'kind'>

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
  /** Every `subagent_update` the client received (with `subagents`), in arrival order. */
  subagentUpdates: UnstableSessionNotification[]
  /** The client advertised an unstable capability: its frames follow the unstable schema. */
  unstable: boolean
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

/** The stack's options tree for a harness: the app's stack, minus what the test did not ask for. */
export function harnessStack(options: AcpHarnessOptions, workspace: string): DshStackOptions {
  const mode = options.mode ?? 'ask'
  const files: DshStackOptions = options.withFs
    ? {
        fsLocal: { cwd: workspace },
        // As the app does: the agent reads and writes through each session's editor when its
        // client offers the fs methods, else the disk.
        fsAcp:
          options.editor?.timeoutMs === undefined ? {} : { timeoutMs: options.editor.timeoutMs },
        fsPolicy: {},
        toolFs: {},
        toolSearch: {},
        permission: { defaultMode: mode },
      }
    : {}
  return {
    ...files,
    ...(options.withPlan && { toolPlan: {} }),
    // Images, as the app mounts them (read_image needs ctx.fs).
    ...(options.withImages && options.withFs && { toolImage: {} }),
    ...(options.withShell && shellOf(options, workspace)),
    ...(options.web && webOf(options.web)),
    ...(options.withKnowledge && {
      knowledge: options.withKnowledge === true ? {} : options.withKnowledge,
    }),
    llm: options.openai
      ? { kind: 'openai', ...options.openai }
      : {
          kind: 'scripted',
          script: options.script ?? { turns: [] },
          delayMs: options.delayMs ?? 0,
          imageInput: options.withImages === true,
        },
    ...(options.withTask && { toolTask: {} }),
    agents: {
      maxSteps: options.maxSteps ?? 50,
      // As the app: the plan's latest list stays whole through a compaction.
      compaction: { keepTools: ['todo'] },
      ...(options.store && { store: options.store }),
    },
    acp: { modes: [...PERMISSION_MODES], defaultMode: mode },
  }
}

/** The local shell, or the sandboxing one as the app loads it, and the shell tools. */
function shellOf(options: AcpHarnessOptions, workspace: string): DshStackOptions {
  const grace = typeof options.withShell === 'object' ? options.withShell : {}
  const sandbox = options.sandbox === true ? {} : options.sandbox
  const outputDir = join(workspace, '.dsh-output')
  if (sandbox === undefined || sandbox === false) {
    return { shellLocal: grace, toolShell: { outputDir, sandboxNetwork: false } }
  }
  const bwrap = sandbox.bwrap === undefined ? {} : { bwrap: sandbox.bwrap }
  return {
    shellSandbox: { ...grace, ...bwrap, visible: [outputDir] },
    toolShell: { outputDir, sandboxNetwork: sandbox.network === true },
  }
}

/** The web tools as the app loads them (ctx.web, a SearXNG provider when given, the tools). */
function webOf(web: NonNullable<AcpHarnessOptions['web']>): DshStackOptions {
  const { searxngUrl, ...config } = web
  return {
    web: { proxyEnv: {}, ...config },
    webSearch: searxngUrl === undefined ? {} : { searxng: { url: searxngUrl } },
    toolWeb: {},
  }
}

async function loadStack(root: Context, options: AcpHarnessOptions, workspace: string) {
  return root.plugin({
    name: 'acp-harness',
    apply: async (ctx: Context) => {
      await ctx.plugin(DshStack, harnessStack(options, workspace))
      const setup = options.setup
      if (setup) await ctx.plugin({ name: 'acp-harness-setup', inject: ['tools'], apply: setup })
    },
  })
}

/**
 * `stream` with the `subagent_update` notifications kept in `into` instead of reaching the
 * client: the SDK's stable client rejects them as invalid params. Every other message passes.
 */
function withoutSubagentUpdates(stream: Stream, into: UnstableSessionNotification[]): Stream {
  const filter = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      if ('method' in message && message.method === methods.client.session.update) {
        const params = message.params as UnstableSessionNotification
        if (params.update.sessionUpdate === 'subagent_update') {
          into.push(params)
          return
        }
      }
      controller.enqueue(message)
    },
  })
  return { readable: stream.readable.pipeThrough(filter), writable: stream.writable }
}

export async function createAcpHarness(options: AcpHarnessOptions): Promise<AcpHarness> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'dsh-acp-')))
  // The root context reads every service of the stack without declaring injections.
  const ctx = new Context()
  const fiber: Fiber = await loadStack(ctx, options, workspace)
  const log = new FramePipes()
  const server = ctx.acp.serve(ndJsonStream(log.agentOutput, log.agentInput))
  const editor = options.editor && new HarnessEditor(options.editor)
  const subagentUpdates: UnstableSessionNotification[] = []
  const stream = withoutSubagentUpdates(
    ndJsonStream(log.clientOutput, log.clientInput),
    subagentUpdates,
  )
  const sdk = new HarnessClient(stream, options.answer, editor)
  const client = sdk.connection
  const unstableCapabilities: UnstableClientCapabilities = {
    ...(editor && { fs: editor.capabilities }),
    ...(options.terminalOutput && { _meta: { terminal_output: true } }),
    ...(options.notices && { session: { notices: {} } }),
    ...(options.subagents && { subagents: {} }),
  }
  const clientCapabilities: ClientCapabilities = unstableCapabilities
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
    subagentUpdates,
    unstable: options.subagents === true,
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
