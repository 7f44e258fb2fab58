// DeepSeek's current models over the BUILT bin's real stdio, against an OpenAI-compatible
// server on 127.0.0.1 standing in for DeepSeek: the default request names deepseek-v4-flash
// and thinks; a retired name given with --model is sent as its successor, and the person is
// told once. Every frame the bin wrote is checked against the ACP schema.
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { recordingServer, textAnswer } from './helpers/recording-server'
import type { ModelServer } from './helpers/recording-server'
import { envWithoutKey, startBin } from './helpers/spawn-bin'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-models')

beforeAll(() => ensureBuilt(), 420_000)

/** One session of a bin on `model` with `args`; its updates' texts, and the bodies sent. */
async function oneSession(model: ModelServer, args: string[], prompts: number) {
  const env = { ...envWithoutKey(), DEEPSEEK_API_KEY: 'sk-local-test' }
  const bin = startBin(['--base-url', model.url, ...args], await tempDir('home'), env)
  const client = new HarnessClient(bin.stream)
  const agent = client.connection.agent
  await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  const cwd = await tempDir('work')
  const opened = await agent.request('session/new', { cwd, mcpServers: [] })
  for (let n = 0; n < prompts; n++) {
    await agent.request('session/prompt', {
      sessionId: opened.sessionId,
      prompt: [{ type: 'text', text: `hello ${n}` }],
    })
  }
  client.connection.close()
  bin.child.stdin.end()
  expect(await bin.exited).toBe(0)
  assertAgentFramesValid(bin.frames)
  const texts = client.updates.flatMap(({ update }) =>
    update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
      ? [update.content.text]
      : [],
  )
  return { opened, texts }
}

describe("DeepSeek's models", () => {
  it('the default request names deepseek-v4-flash, thinking at high', async () => {
    const model = await recordingServer([textAnswer('hi')])
    try {
      const { opened } = await oneSession(model, [], 1)
      expect(model.bodies[0]).toMatchObject({
        model: 'deepseek-v4-flash',
        thinking: { type: 'enabled' },
        reasoning_effort: 'high',
      })
      const option = opened.configOptions?.find((entry) => entry.id === 'model')
      expect(option).toMatchObject({ currentValue: 'deepseek-v4-flash' })
    } finally {
      model.close()
    }
  })

  it('--model deepseek-chat is sent as deepseek-v4-flash, and the person is told once', async () => {
    const model = await recordingServer([textAnswer('one'), textAnswer('two')])
    try {
      const { texts } = await oneSession(model, ['--model', 'deepseek-chat'], 2)
      expect(model.bodies.map((body) => body.model)).toEqual([
        'deepseek-v4-flash',
        'deepseek-v4-flash',
      ])
      const told = texts.filter((text) => text.includes('retired the model name deepseek-chat'))
      expect(told).toHaveLength(1)
      expect(told[0]).toContain('deepseek-v4-flash')
    } finally {
      model.close()
    }
  })
})
