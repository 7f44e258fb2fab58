// A started bin with the SDK's client (the harness's HarnessClient over the bin's stdio),
// initialized; and its end: stdin closed, a clean exit expected, every frame it wrote checked
// against the ACP schema.
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { expect } from 'vitest'
import { startBin } from './spawn-bin'
import type { BinSession } from './spawn-bin'

/** A bin started in `home` with a client: initialized, ready for sessions. */
export async function connectBin(args: string[], home: string, env?: NodeJS.ProcessEnv) {
  const bin = startBin(args, home, env)
  const client = new HarnessClient(bin.stream)
  const agent = client.connection.agent
  const init = await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  return { bin, client, agent, init }
}

/** Ends the bin's stdin, expects a clean exit, and checks every frame it wrote. */
export async function finishBin(bin: BinSession, client: HarnessClient): Promise<void> {
  client.connection.close()
  if (!bin.child.stdin.writableEnded) bin.child.stdin.end()
  expect(await bin.exited).toBe(0)
  assertAgentFramesValid(bin.frames)
}
