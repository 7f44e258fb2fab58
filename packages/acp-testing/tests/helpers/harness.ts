// The harness as every test file uses it: `const harness = useAcpHarness()` registers an
// afterEach that disposes each harness the test made and then checks that every frame the
// bridge wrote validates against the ACP schema its client negotiated (the unstable one when it
// advertised subagents) — an invalid frame fails the test.
import { afterEach } from 'vitest'
import { z } from 'zod'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { createAcpHarness } from '../../src/harness'
import type { AcpHarness } from '../../src/harness'
import type { AcpHarnessOptions } from '../../src/harness-stack'
import { assertAgentFramesValid } from '../../src/schema'

export function useAcpHarness(): (options: AcpHarnessOptions) => Promise<AcpHarness> {
  const live: AcpHarness[] = []
  afterEach(async () => {
    const harnesses = live.splice(0)
    await Promise.all(harnesses.map((harness) => harness.dispose()))
    for (const harness of harnesses) {
      assertAgentFramesValid(harness.frames, { unstable: harness.unstable })
    }
  })
  return async (options) => {
    const harness = await createAcpHarness(options)
    live.push(harness)
    return harness
  }
}

/** A tool that runs until its call is aborted, then fails as an aborted tool does. */
export function slowTool() {
  const state = { aborted: 0, markStarted: () => {} }
  const started = new Promise<void>((resolve) => (state.markStarted = resolve))
  const register = (ctx: Context) => {
    ctx.tools.register(
      defineTool({
        name: 'slow',
        description: 'Waits until it is aborted.',
        input: z.object({}),
        execute: (_args, exec) =>
          new Promise<string>((_resolve, reject) => {
            state.markStarted()
            exec.signal?.addEventListener('abort', () => {
              state.aborted += 1
              reject(Object.assign(new Error('The call was aborted.'), { code: 'SLOW_ABORTED' }))
            })
          }),
      }),
    )
  }
  return {
    started,
    register,
    get aborted() {
      return state.aborted
    },
  }
}

/** The text of the message (or thought) chunks among `updates`, joined. */
export function chunkText(
  updates: readonly SessionUpdate[],
  kind: 'agent_message_chunk' | 'agent_thought_chunk' = 'agent_message_chunk',
): string {
  const texts: string[] = []
  for (const update of updates) {
    if (
      (update.sessionUpdate === 'agent_message_chunk' ||
        update.sessionUpdate === 'agent_thought_chunk') &&
      update.sessionUpdate === kind &&
      update.content.type === 'text'
    ) {
      texts.push(update.content.text)
    }
  }
  return texts.join('')
}

/** The updates of one kind, typed. */
export function updatesOfKind<K extends SessionUpdate['sessionUpdate']>(
  updates: readonly SessionUpdate[],
  kind: K,
): Extract<SessionUpdate, { sessionUpdate: K }>[] {
  return updates.filter(
    (update): update is Extract<SessionUpdate, { sessionUpdate: K }> =>
      update.sessionUpdate === kind,
  )
}
