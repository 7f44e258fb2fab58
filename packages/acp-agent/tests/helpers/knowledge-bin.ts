// A `dsh-acp` bin for the project-knowledge tests: a recording model server on 127.0.0.1, the
// person's places (HOME, XDG_CONFIG_HOME) in temporary folders, full access, sessions stored,
// and a client that advertises notices; with helpers to read what the model was sent.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import * as acp from '@agentclientprotocol/sdk'
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { recordingServer } from './recording-server'
import type { ModelServer, RecordedRequest } from './recording-server'
import { envWithoutKey, startBin } from './spawn-bin'
import type { BinSession } from './spawn-bin'

export interface KnowledgeBin {
  bin: BinSession
  client: HarnessClient
  agent: acp.ClientContext
  model: ModelServer
  /** session/new (or `load` of a stored one) in `cwd` → the session id. */
  open(cwd: string, load?: string): Promise<string>
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>
  /** The text updates (`agent_message_chunk`) and notices the client was shown. */
  shown(): string[]
  /** Ends the bin and checks every frame it wrote against the ACP schema. */
  close(): Promise<void>
}

export interface KnowledgePlaces {
  home: string
  config: string
  store: string
}

export async function startKnowledgeBin(
  places: KnowledgePlaces,
  answers: string[][],
  model?: ModelServer,
  extraArgs: string[] = [],
): Promise<KnowledgeBin> {
  const server = model ?? (await recordingServer(answers))
  const env = {
    ...envWithoutKey(),
    DEEPSEEK_API_KEY: 'sk-local-test',
    HOME: places.home,
    XDG_CONFIG_HOME: places.config,
  }
  const args = [
    ...['--base-url', server.url, '--mode', 'full-access', '--sessions', places.store],
    ...extraArgs,
  ]
  const bin = startBin(args, places.home, env)
  const client = new HarnessClient(bin.stream)
  const agent = client.connection.agent
  await agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { session: { notices: {} } },
  })
  return {
    bin,
    client,
    agent,
    model: server,
    open: async (cwd, load) => {
      if (load === undefined) {
        return (await agent.request('session/new', { cwd, mcpServers: [] })).sessionId
      }
      await agent.request('session/load', { sessionId: load, cwd, mcpServers: [] })
      return load
    },
    prompt: (sessionId, text) =>
      agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }),
    shown: () =>
      client.updates.flatMap(({ update }) => {
        if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text')
          return [update.content.text]
        if (update.sessionUpdate === 'notice') return [update.title]
        return []
      }),
    close: async () => {
      bin.child.kill('SIGTERM')
      await bin.exited
      if (model === undefined) server.close()
      assertAgentFramesValid(bin.frames)
    },
  }
}

/** Writes each file (path relative to `root`), making folders as needed. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
}

/** Everything a request sent, system prompt and messages, as one text. */
export function requestText(body: RecordedRequest): string {
  return body.messages.map((message) => message.content ?? '').join('\n\n')
}

/** How many times `needle` occurs in the request's messages. */
export function countIn(body: RecordedRequest | undefined, needle: string): number {
  if (body === undefined) return -1
  return requestText(body).split(needle).length - 1
}
