// Images over the bin's stdio, against an OpenAI-compatible server on 127.0.0.1: a prompt's
// image reaches a model that takes images as an `image_url` part (a data URL); read_image sends
// a file's image the same way; a model that reads text only refuses an image prompt with an
// error naming it and what to do, and is never offered read_image; an image prompt survives
// session/load. Every frame the bin writes is checked against the ACP schema.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as acp from '@agentclientprotocol/sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import { connectBin, finishBin } from './helpers/bin-client'
import { ensureBuilt } from './helpers/build'
import { recordingServer, textAnswer, toolCallAnswer } from './helpers/recording-server'
import type { ModelServer } from './helpers/recording-server'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-images')

beforeAll(() => ensureBuilt(), 420_000)

/** One transparent pixel. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const IMAGE_PART = { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }

const connect = async (args: string[]) => connectBin(args, await tempDir('home'))
const finish = finishBin

type Body = ModelServer['bodies'][number]
/** The content of the messages of `role` in a recorded request. */
const contents = (body: Body | undefined, role: string): unknown[] =>
  (body?.messages ?? []).filter((message) => message.role === role).map((m) => m.content)
const toolNames = (body: Body | undefined) => (body?.tools ?? []).map((tool) => tool.function.name)

const imagePrompt = (text: string): acp.ContentBlock[] => [
  { type: 'text', text },
  { type: 'image', mimeType: 'image/png', data: PNG },
]

describe('a model that takes images', () => {
  it('gets a prompt image as an image_url part, and read_image sends a file the same way', async () => {
    const workspace = await tempDir('ws')
    await writeFile(join(workspace, 'shot.dat'), Buffer.from(PNG, 'base64'))
    const model = await recordingServer([
      textAnswer('A single pixel.'),
      toolCallAnswer('r1', 'read_image', { file_path: 'shot.dat' }),
      textAnswer('The file holds the same pixel.'),
    ])
    try {
      const args = ['--base-url', model.url, '--model', 'my-vision', '--image-input']
      const { bin, client, agent, init } = await connect(args)
      expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true)
      const { sessionId } = await agent.request('session/new', { cwd: workspace, mcpServers: [] })
      const first = await agent.request('session/prompt', {
        sessionId,
        prompt: imagePrompt('What is in this picture?'),
      })
      expect(first.stopReason).toBe('end_turn')
      expect(contents(model.bodies[0], 'user')).toEqual([
        [{ type: 'text', text: 'What is in this picture?' }, IMAGE_PART],
      ])
      expect(toolNames(model.bodies[0])).toContain('read_image')

      await agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Look at shot.dat' }],
      })
      const after = model.bodies[2]?.messages ?? []
      const tool = after.findIndex((message) => message.role === 'tool')
      expect(after[tool]?.content).toBe(
        `Read image ${join(workspace, 'shot.dat')}: PNG, 70 bytes. The image follows.`,
      )
      expect(after[tool + 1]).toEqual({
        role: 'user',
        content: [{ type: 'text', text: 'The image from tool call r1:' }, IMAGE_PART],
      })
      const card = client.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call')
      expect(card).toMatchObject({
        title: 'Read image shot.dat',
        kind: 'read',
        locations: [{ path: join(workspace, 'shot.dat') }],
      })
      await finish(bin, client)
    } finally {
      model.close()
    }
  })
})

describe('a model that reads text only', () => {
  it('refuses an image prompt naming the model and what to do, and is not offered read_image', async () => {
    const workspace = await tempDir('ws')
    const model = await recordingServer([textAnswer('Hello.')])
    try {
      const args = ['--base-url', model.url, '--model', 'deepseek-v4-pro']
      const { bin, client, agent, init } = await connect(args)
      expect(init.agentCapabilities?.promptCapabilities?.image).toBe(false)
      const { sessionId } = await agent.request('session/new', { cwd: workspace, mcpServers: [] })
      const refused = agent.request('session/prompt', {
        sessionId,
        prompt: imagePrompt('What is this?'),
      })
      await expect(refused).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(
          /The model deepseek-v4-pro reads text only, so the prompt with an image was not sent\. .*--image-input/,
        ),
      })
      expect(model.bodies).toHaveLength(0)
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Hi' }] })
      expect(model.bodies).toHaveLength(1)
      expect(toolNames(model.bodies[0])).not.toContain('read_image')
      expect(toolNames(model.bodies[0])).toContain('read')
      await finish(bin, client)
    } finally {
      model.close()
    }
  })
})

describe('a stored session', () => {
  it('replays its image and sends it to the model again after session/load', async () => {
    const workspace = await tempDir('ws')
    const store = await tempDir('store')
    const model = await recordingServer([textAnswer('A pixel.'), textAnswer('Still a pixel.')])
    try {
      const args = ['--sessions', store, '--base-url', model.url, '--model', 'gpt-4o']
      const one = await connect(args)
      expect(one.init.agentCapabilities?.promptCapabilities?.image).toBe(true)
      const { sessionId } = await one.agent.request('session/new', {
        cwd: workspace,
        mcpServers: [],
      })
      await one.agent.request('session/prompt', { sessionId, prompt: imagePrompt('What is it?') })
      await finish(one.bin, one.client)

      const two = await connect(args)
      await two.agent.request('session/load', { sessionId, cwd: workspace, mcpServers: [] })
      const replayed = two.client.updates.map((n) => n.update)
      expect(replayed.slice(0, 2)).toEqual([
        { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'What is it?' } },
        {
          sessionUpdate: 'user_message_chunk',
          content: { type: 'image', mimeType: 'image/png', data: PNG },
        },
      ])
      await two.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'And now?' }],
      })
      expect(contents(model.bodies[1], 'user')).toEqual([
        [{ type: 'text', text: 'What is it?' }, IMAGE_PART],
        'And now?',
      ])
      await finish(two.bin, two.client)
    } finally {
      model.close()
    }
  })
})
