// Images on the wire and which models take them: a user message's images as image_url parts
// after its text, a tool result's images in one user message right after the run of results
// (a tool message takes text only), and image input from the --image-input config, the
// server's model list (its input modalities), and the table, in that order.
import { describe, expect, it } from 'vitest'
import { knownImageInput, listedImageInput } from '@deepseek-ai/dsh-llm-openai'
import { toWireRequest } from '../src/wire'
import { model } from './helpers/client'
import { serveEachTest } from './helpers/server'

const serve = serveEachTest()
const image = { mimeType: 'image/png', data: 'iVBORw0KGgo=' }
const part = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }

describe('images on the wire', () => {
  it('sends a user message with images as its text then one image_url part each', () => {
    const body = toWireRequest(
      { system: '', tools: [], messages: [{ role: 'user', content: 'Look', images: [image] }] },
      'm',
    )
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Look' }, part] },
    ])
  })

  it("puts the tool results' images in one user message after the run of results", () => {
    const calls = [
      { id: 'a', name: 'read_image', arguments: '{}' },
      { id: 'b', name: 'read', arguments: '{}' },
    ]
    const body = toWireRequest(
      {
        system: 'S',
        tools: [],
        messages: [
          { role: 'user', content: 'Go' },
          { role: 'assistant', content: '', toolCalls: calls },
          { role: 'tool', toolCallId: 'a', content: 'Read image a.png', images: [image] },
          { role: 'tool', toolCallId: 'b', content: 'text' },
          { role: 'assistant', content: 'Seen.' },
        ],
      },
      'm',
    )
    expect(body.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
    ])
    expect(body.messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'a',
      content: 'Read image a.png',
    })
    expect(body.messages[5]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'The image from tool call a:' }, part],
    })
  })

  it('leaves a message without images as plain text', () => {
    const body = toWireRequest(
      { system: '', tools: [], messages: [{ role: 'user', content: 'Hi' }] },
      'm',
    )
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi' }])
  })
})

describe('which models take images', () => {
  it('the families table: deepseek- ids it does not know read text only, vision families take images', () => {
    expect(knownImageInput('deepseek-v5-pro')).toBe(false)
    expect(knownImageInput('gpt-4o-mini')).toBe(true)
    expect(knownImageInput('openai/gpt-4.1')).toBe(true)
    expect(knownImageInput('qwen3:8b')).toBeUndefined()
  })

  it("reads a model list entry's input modalities", () => {
    expect(
      listedImageInput({ id: 'x', architecture: { input_modalities: ['text', 'image'] } }),
    ).toBe(true)
    expect(listedImageInput({ id: 'x', input_modalities: ['text'] })).toBe(false)
    expect(listedImageInput({ id: 'x', owned_by: 'me' })).toBeUndefined()
  })

  it('takes the config for the configured model, then the server list, then the table', async () => {
    const target = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const data = [
        { id: 'seer', architecture: { input_modalities: ['text', 'image'] } },
        { id: 'gpt-4o', architecture: { input_modalities: ['text'] } },
        { id: 'plain' },
      ]
      res.end(JSON.stringify({ data }))
    })
    const llm = await model({ baseUrl: target.baseUrl, model: 'mine', imageInput: true })
    expect(llm.modelInfo().imageInput).toBe(true)
    expect(llm.modelInfo('seer').imageInput).toBeUndefined()
    expect(llm.modelInfo('gpt-4o').imageInput).toBe(true)
    await llm.models()
    expect(llm.modelInfo('seer').imageInput).toBe(true)
    expect(llm.modelInfo('gpt-4o').imageInput).toBeUndefined()
    expect(llm.modelInfo('plain').imageInput).toBeUndefined()
    expect(llm.modelInfo('mine').imageInput).toBe(true)
  })
})
