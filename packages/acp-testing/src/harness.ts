// The ACP test harness: a Cordis context with the tool registry, the system prompt, the
// scripted model, the agent host and the bridge — and, with `withFs`, the whole fs stack (the
// real LocalFileSystem, FsPolicy and the file tools) on a temporary workspace — connected to
// the SDK's own client over in-memory ndjson streams. It records every `session/update` the
// client receives and every frame each side writes, so tests can check what went on the wire
// (`assertAgentFramesValid` from ./schema checks the frames against the ACP schema).
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { client as acpClient, methods, ndJsonStream } from '@agentclientprotocol/sdk'
import type {
  ClientConnection,
  ClientContext,
  ContentBlock,
  InitializeResponse,
  PromptResponse,
  SessionNotification,
  SessionUpdate,
} from '@agentclientprotocol/sdk'
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import * as Acp from '@deepseek-ai/dsh-acp'
import type { AcpServeHandle } from '@deepseek-ai/dsh-acp'
import Agents from '@deepseek-ai/dsh-agent'
import * as FsStack from '@deepseek-ai/dsh-fs-stack'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import { FramePipes } from './frames'
import type { AcpFrame } from './frames'

export interface AcpHarnessOptions {
  /** What the scripted model says, one turn per model request (all sessions share it). */
  script: LlmScript
  /** Load the real fs stack (LocalFileSystem, FsPolicy, ToolFs) on the workspace. */
  withFs?: boolean
  /** Milliseconds the scripted model waits between stream events (slows turns down). */
  delayMs?: number
  /** The agent host's step limit per turn. */
  maxSteps?: number
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
  /** Every frame either side wrote, in order (`from: 'agent' | 'client'`). */
  frames: AcpFrame[]
  /** The frames the bridge (agent side) wrote. */
  agentFrames(): AcpFrame[]
  /** The updates of one session, in order. */
  updatesOf(sessionId: string): SessionUpdate[]
  /** `session/new` on `cwd` (default: the workspace) → the session id. */
  newSession(cwd?: string): Promise<string>
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
        await ctx.plugin(FsStack, { local: { cwd: workspace } })
      } else {
        await ctx.plugin(ToolRegistry)
        await ctx.plugin(SystemPrompt)
      }
      const setup = options.setup
      if (setup) await ctx.plugin({ name: 'acp-harness-setup', inject: ['tools'], apply: setup })
      await ctx.plugin(ScriptedLlm, { script: options.script, delayMs: options.delayMs ?? 0 })
      await ctx.plugin(Agents, { maxSteps: options.maxSteps ?? 50 })
      await ctx.plugin(Acp)
    },
  })
}

export async function createAcpHarness(options: AcpHarnessOptions): Promise<AcpHarness> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'dsh-acp-')))
  // The root context reads every service of the stack without declaring injections.
  const ctx = new Context()
  const fiber: Fiber = await loadStack(ctx, options, workspace)
  const log = new FramePipes()
  const updates: SessionNotification[] = []
  const updateWaiters = new Set<{
    match: (n: SessionNotification) => boolean
    resolve: (n: SessionNotification) => void
  }>()

  const server = ctx.acp.serve(ndJsonStream(log.agentOutput, log.agentInput))
  const sdkClient = acpClient({ name: 'dsh-acp-harness' }).onNotification(
    methods.client.session.update,
    ({ params }) => {
      updates.push(params)
      for (const waiter of updateWaiters) {
        if (waiter.match(params)) {
          updateWaiters.delete(waiter)
          waiter.resolve(params)
        }
      }
    },
  )
  const client = sdkClient.connect(ndJsonStream(log.clientOutput, log.clientInput))
  const initialized = await client.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {},
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
    updates,
    frames: log.frames,
    agentFrames: () => log.frames.filter((frame) => frame.from === 'agent'),
    updatesOf: (sessionId) => updates.filter((n) => n.sessionId === sessionId).map((n) => n.update),
    newSession: async (cwd = workspace) => {
      const response = await client.agent.request(methods.agent.session.new, {
        cwd,
        mcpServers: [],
      })
      return response.sessionId
    },
    prompt: (sessionId, prompt) =>
      client.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt,
      }),
    cancel: (sessionId) => client.agent.notify(methods.agent.session.cancel, { sessionId }),
    waitForUpdate: (match) => {
      const found = updates.find(match)
      if (found) return Promise.resolve(found)
      return new Promise((resolve) => updateWaiters.add({ match, resolve }))
    },
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
