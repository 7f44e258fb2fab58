// The ACP test harness: the app's stack (the `stack` package, from one options tree) with a
// scripted model (or the OpenAI-compatible one, pointed at a server the test runs), connected
// to the SDK's own client over in-memory ndjson streams. Always the tool registry, the system
// prompt, the agent host and the bridge (offering the permission modes); with `withFs` the file
// tools as the app loads them (the disk under each session's editor, FsPolicy, read/write/edit,
// glob/grep, the permission layer) on a temporary workspace; `withPlan` the todo tool;
// `withShell` the shell tools. It records every `session/update` and permission request the
// client receives and every frame each side writes, so tests can check what went on the wire
// (`assertAgentFramesValid` from ./schema checks the frames against the ACP schema). Its
// options and the stack's options tree it loads are in ./harness-stack.
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
import * as DshStack from '@deepseek-ai/dsh-stack'
import { HarnessClient } from './client'
import { harnessStack } from './harness-stack'
import type { AcpHarnessOptions } from './harness-stack'
import { HarnessEditor } from './editor'
import type { PermissionAnswerer } from './client'
import { FramePipes } from './frames'
import type { AcpFrame } from './frames'

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
  const initialized = await client.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: capabilitiesOf(options, editor),
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
    ...sessionRequests(client, workspace),
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

/** What the harness's client advertises: the editor's fs methods and the extensions asked for. */
function capabilitiesOf(
  options: AcpHarnessOptions,
  editor: HarnessEditor | undefined,
): ClientCapabilities {
  const unstableCapabilities: UnstableClientCapabilities = {
    ...(editor && { fs: editor.capabilities }),
    ...(options.terminalOutput && { _meta: { terminal_output: true } }),
    ...(options.notices && { session: { notices: {} } }),
    ...(options.subagents && { subagents: {} }),
  }
  return unstableCapabilities
}

/** The session requests tests make most, over the harness's client. */
function sessionRequests(
  client: HarnessClient['connection'],
  workspace: string,
): Pick<AcpHarness, 'newSession' | 'setMode' | 'prompt' | 'cancel'> {
  return {
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
  }
}
