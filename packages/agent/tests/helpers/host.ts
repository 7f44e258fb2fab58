// Builds a Cordis context with the real ToolRegistry, SystemPrompt and Agents on a fresh
// mkdtemp workspace, and a model from ./fakes. With `fs`, the registry and the prompt come
// with the whole fs stack (the local disk on the workspace, FsPolicy, the file tools).
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import type { LlmRequest, LlmScript } from '@deepseek-ai/dsh-llm'
import { loadFileTools } from './file-tools'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import Agents from '../../src'
import type { SessionEvent, SessionStore } from '../../src'
import { RawLlm, RecordingLlm } from './fakes'
import type { RawResponse, RecordsRequests } from './fakes'

export interface HostOptions {
  script?: LlmScript
  delayMs?: number
  responses?: RawResponse[]
  maxSteps?: number
  /** Mount the fs stack on the workspace (read, write and edit on the real disk). */
  fs?: boolean
  /** A session store for the agents host. */
  store?: SessionStore
}

export interface Host {
  ctx: Context
  dir: string
  agents: Agents
  agentsFiber: Fiber
  requests(): LlmRequest[]
  cleanup(): Promise<void>
}

export async function createHost(options: HostOptions = {}): Promise<Host> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-agent-')))
  const ctx = new Context()
  if (options.fs) {
    await loadFileTools(ctx, dir)
  } else {
    await ctx.plugin(ToolRegistry)
    await ctx.plugin(SystemPrompt)
  }
  if (options.responses) {
    await ctx.plugin(RawLlm, { responses: options.responses })
  } else {
    const script = options.script ?? { turns: [] }
    await ctx.plugin(RecordingLlm, { script, delayMs: options.delayMs ?? 0 })
  }
  const config = {
    ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
    ...(options.store !== undefined && { store: options.store }),
  }
  const agentsFiber = await ctx.plugin(Agents, config).await()
  return {
    ctx,
    dir,
    agents: ctx.agents,
    agentsFiber,
    requests: () => (ctx.llm as unknown as RecordsRequests).requests,
    async cleanup() {
      await agentsFiber.dispose()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** The event types of a log, in order (chunks merged into one entry per run). */
export function eventTypes(events: readonly SessionEvent[]): string[] {
  const types: string[] = []
  for (const event of events) {
    if (event.type === 'assistant/chunk' && types.at(-1) === `assistant/${event.kind}`) continue
    types.push(event.type === 'assistant/chunk' ? `assistant/${event.kind}` : event.type)
  }
  return types
}

/** Resolves with the first event of `type` the agent appends from now on. */
export function nextEvent<T extends SessionEvent['type']>(
  agent: { subscribe(listener: (event: SessionEvent) => void): () => void },
  type: T,
): Promise<Extract<SessionEvent, { type: T }>> {
  return new Promise((resolve) => {
    const unsubscribe = agent.subscribe((event) => {
      if (event.type !== type) return
      unsubscribe()
      resolve(event as Extract<SessionEvent, { type: T }>)
    })
  })
}
