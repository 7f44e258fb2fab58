// DeepSeek's current models over the BUILT bin's real stdio, against an OpenAI-compatible
// server on 127.0.0.1 standing in for DeepSeek: the default request names deepseek-flash
// and thinks; a retired name given with --model is sent as its successor, and the person is
// told once. The mode, model and thought_level options: shown, switched (each answer the
// whole list), in force on the next request, and kept by session/load. Every frame the bin wrote is checked against the ACP schema.
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { recordingServer, textAnswer, toolCallAnswer } from './helpers/recording-server'
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
  it('the default request names deepseek-flash, thinking at high', async () => {
    const model = await recordingServer([textAnswer('hi')])
    try {
      const { opened } = await oneSession(model, [], 1)
      expect(model.bodies[0]).toMatchObject({
        model: 'deepseek-flash',
        thinking: { type: 'enabled' },
        reasoning_effort: 'high',
      })
      const option = opened.configOptions?.find((entry) => entry.id === 'model')
      expect(option).toMatchObject({ currentValue: 'deepseek-flash' })
    } finally {
      model.close()
    }
  })

  it('--model deepseek-chat is sent as deepseek-flash, and the person is told once', async () => {
    const model = await recordingServer([textAnswer('one'), textAnswer('two')])
    try {
      const { texts } = await oneSession(model, ['--model', 'deepseek-chat'], 2)
      expect(model.bodies.map((body) => body.model)).toEqual(['deepseek-flash', 'deepseek-flash'])
      const told = texts.filter((text) => text.includes('serves deepseek-chat with'))
      expect(told).toHaveLength(1)
      expect(told[0]).toContain('dsh sends deepseek-flash instead')
    } finally {
      model.close()
    }
  })
})

describe('config options over the bin', () => {
  it('mode, model and thought_level: shown, switched, in force, and kept by session/load', async () => {
    const model = await recordingServer([
      toolCallAnswer('w1', 'write', { file_path: 'a.txt', content: 'x' }),
      textAnswer('refused'),
      textAnswer('max'),
      textAnswer('after load'),
    ])
    const env = { ...envWithoutKey(), DEEPSEEK_API_KEY: 'sk-local-test' }
    const args = ['--base-url', model.url, '--sessions', await tempDir('store')]
    const cwd = await tempDir('work')
    try {
      const bin = startBin(args, await tempDir('home'), env)
      const client = new HarnessClient(bin.stream)
      const agent = client.connection.agent
      await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
      const opened = await agent.request('session/new', { cwd, mcpServers: [] })
      const { sessionId } = opened
      expect(opened.configOptions?.map((option) => [option.id, option.category])).toEqual([
        ['mode', 'mode'],
        ['model', 'model'],
        ['thought_level', 'thought_level'],
      ])
      const mode = opened.configOptions?.[0]
      expect(
        mode &&
          'options' in mode &&
          mode.options.map((entry) => ('value' in entry ? entry.value : '')),
      ).toContain('read-only')

      const before = client.updates.length
      const answer = await agent.request('session/set_config_option', {
        sessionId,
        configId: 'mode',
        value: 'read-only',
      })
      expect(answer.configOptions.map((option) => [option.id, option.currentValue])).toEqual([
        ['mode', 'read-only'],
        ['model', 'deepseek-flash'],
        ['thought_level', 'high'],
      ])
      const seen = client.updates.slice(before).map(({ update }) => update)
      expect(seen).toContainEqual({
        sessionUpdate: 'current_mode_update',
        currentModeId: 'read-only',
      })
      expect(seen.some((update) => update.sessionUpdate === 'config_option_update')).toBe(true)

      await agent.request('session/set_config_option', {
        sessionId,
        configId: 'thought_level',
        value: 'off',
      })
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'w' }] })
      expect(client.permissionRequests).toEqual([])
      await expect(stat(join(cwd, 'a.txt'))).rejects.toThrow()
      expect(model.bodies[0]).toMatchObject({ thinking: { type: 'disabled' } })
      expect(model.bodies[0]).not.toHaveProperty('reasoning_effort')

      await agent.request('session/set_config_option', {
        sessionId,
        configId: 'thought_level',
        value: 'max',
      })
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'm' }] })
      expect(model.bodies[2]).toMatchObject({
        model: 'deepseek-flash',
        thinking: { type: 'enabled' },
        reasoning_effort: 'max',
      })
      client.connection.close()
      bin.child.stdin.end()
      expect(await bin.exited).toBe(0)
      assertAgentFramesValid(bin.frames)

      const again = startBin(args, await tempDir('home'), env)
      const second = new HarnessClient(again.stream)
      await second.connection.agent.request('initialize', {
        protocolVersion: 1,
        clientCapabilities: {},
      })
      const loaded = await second.connection.agent.request('session/load', {
        sessionId,
        cwd,
        mcpServers: [],
      })
      expect(loaded.modes?.currentModeId).toBe('read-only')
      expect(loaded.configOptions?.map((option) => [option.id, option.currentValue])).toEqual([
        ['mode', 'read-only'],
        ['model', 'deepseek-flash'],
        ['thought_level', 'max'],
      ])
      second.connection.close()
      again.child.stdin.end()
      expect(await again.exited).toBe(0)
      assertAgentFramesValid(again.frames)
    } finally {
      model.close()
    }
  })
})
