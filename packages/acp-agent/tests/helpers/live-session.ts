// A live ACP session with the built bin over its real stdio, driven by the SDK's own client:
// every update and permission request recorded, permission requests answered as the test says.
// `close()` ends stdin, waits for the bin to exit and checks every frame it wrote.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as acp from '@agentclientprotocol/sdk'
import { assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import type { PermissionAnswerer } from '@deepseek-ai/dsh-acp-testing'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import { startBin } from './spawn-bin'
import type { BinSession } from './spawn-bin'

export interface LiveSession {
  bin: BinSession
  agent: acp.ClientContext
  sessionId: string
  initialized: acp.InitializeResponse
  newSession: acp.NewSessionResponse
  updates: acp.SessionUpdate[]
  permissionRequests: acp.RequestPermissionRequest[]
  prompt(text: string): Promise<acp.PromptResponse>
  close(): Promise<number | null>
}

export interface LiveSessionOptions {
  /** The scripted model; without one, the model the flags and `env` choose. */
  script?: LlmScript
  workspace: string
  /** Where the bin starts and the script file goes (not the workspace). */
  home: string
  /** More flags for the bin, e.g. `['--mode', 'auto-edit']`. */
  args?: string[]
  answer: PermissionAnswerer
  additionalDirectories?: string[]
  /** The MCP servers the session is opened with (none by default). */
  mcpServers?: acp.McpServer[]
  /** What the client offers in `initialize` (default none). */
  clientCapabilities?: acp.ClientCapabilities
  /** The bin's environment (default: the parent's without a model key). */
  env?: NodeJS.ProcessEnv
}

export async function openLiveSession(options: LiveSessionOptions): Promise<LiveSession> {
  const scriptFile = join(options.home, 'script.json')
  if (options.script) await writeFile(scriptFile, JSON.stringify(options.script))
  const scripted = options.script ? ['--script', scriptFile] : []
  const bin = startBin([...scripted, ...(options.args ?? [])], options.home, options.env)
  const updates: acp.SessionUpdate[] = []
  const permissionRequests: acp.RequestPermissionRequest[] = []
  const connection = acp
    .client()
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update)
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params)
      return options.answer(params)
    })
    .connect(bin.stream)
  const agent = connection.agent
  const initialized = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: options.clientCapabilities ?? {},
  })
  const newSession = await agent.request(acp.methods.agent.session.new, {
    cwd: options.workspace,
    mcpServers: options.mcpServers ?? [],
    ...(options.additionalDirectories && { additionalDirectories: options.additionalDirectories }),
  })
  const { sessionId } = newSession
  return {
    bin,
    agent,
    sessionId,
    initialized,
    newSession,
    updates,
    permissionRequests,
    prompt: (text) =>
      agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text }],
      }),
    async close() {
      connection.close()
      if (!bin.child.stdin.writableEnded) bin.child.stdin.end()
      const code = await bin.exited
      assertAgentFramesValid(bin.frames)
      return code
    },
  }
}
