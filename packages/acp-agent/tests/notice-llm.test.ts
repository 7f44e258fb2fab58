import { Context } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import type { LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import { NOTICE_TEXT, NoticeLlm } from '../src/index'

const request = { system: '', messages: [{ role: 'user' as const, content: 'fix it' }], tools: [] }

async function collect(events: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const out: LlmStreamEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

describe('the notice model', () => {
  const roots: Context[] = []
  afterEach(async () => {
    for (const root of roots.splice(0)) await root.fiber.dispose()
  })

  async function load(): Promise<Context> {
    const root = new Context()
    roots.push(root)
    await root.plugin(NoticeLlm)
    return root
  }

  it('answers with the configuration message and finishes with stop', async () => {
    const ctx = await load()
    const events = await collect(ctx.llm.stream(request))
    const text = events
      .flatMap((event) => (event.type === 'text-delta' ? [event.text] : []))
      .join('')
    expect(text).toBe(NOTICE_TEXT)
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' })
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([])
  })

  it('the message says how to configure a model', () => {
    for (const word of ['DEEPSEEK_API_KEY', '--script FILE', '--model', '--base-url']) {
      expect(NOTICE_TEXT).toContain(word)
    }
  })

  it('answers every prompt the same way', async () => {
    const ctx = await load()
    const first = await collect(ctx.llm.stream(request))
    const second = await collect(ctx.llm.stream({ ...request, messages: [] }))
    expect(second).toEqual(first)
  })

  it('an aborted request rejects instead of answering', async () => {
    const ctx = await load()
    const controller = new AbortController()
    controller.abort()
    await expect(
      collect(ctx.llm.stream({ ...request, signal: controller.signal })),
    ).rejects.toMatchObject({
      name: 'LlmError',
      code: 'LLM_ABORTED',
    })
  })

  it('disposing the plugin removes the model', async () => {
    const root = new Context()
    const fiber = await root.plugin(NoticeLlm)
    expect(root.get('llm')).toBeInstanceOf(NoticeLlm)
    await fiber.dispose()
    expect(root.get('llm')).toBeUndefined()
  })
})
