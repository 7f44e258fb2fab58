// Thinking as DeepSeek's API takes it (the switch, the effort) and as other OpenAI-compatible
// servers take it (`reasoning_effort` only); the reasoning of tool-calling answers sent back by
// what the server streamed, whatever the model's name; DeepSeek's moved names sent as their
// successor; against a server on 127.0.0.1.
import { describe, expect, it } from 'vitest'
import type { LlmMessage } from '@deepseek-ai/dsh-llm'
import type { OpenAiLlmConfig } from '@deepseek-ai/dsh-llm-openai'
import { thinkingStyleOf } from '@deepseek-ai/dsh-llm-openai'
import { collect, model, request } from './helpers/client'
import { delta, serveEachTest, streamOf } from './helpers/server'

const serve = serveEachTest()
const DEEPSEEK_LEVELS = ['off', 'low', 'high', 'max']
const EFFORT_LEVELS = ['default', 'low', 'medium', 'high']

const conversation: LlmMessage[] = [
  { role: 'user', content: 'read a' },
  {
    role: 'assistant',
    content: '',
    reasoning: 'a is needed',
    toolCalls: [{ id: 'c1', name: 'read', arguments: '{}' }],
  },
  { role: 'tool', toolCallId: 'c1', content: 'A' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'read', arguments: '{}' }] },
  { role: 'tool', toolCallId: 'c2', content: 'A' },
  { role: 'assistant', content: 'done', reasoning: 'nothing more' },
  { role: 'user', content: 'thanks' },
]

/** The same conversation as a server that streamed no reasoning left it. */
const unreasoned = conversation.map((message) =>
  message.role === 'assistant' ? { ...message, reasoning: undefined } : message,
)

async function bodyOf(
  config: Omit<OpenAiLlmConfig, 'baseUrl'>,
  extra: Parameters<typeof request>[0],
): Promise<Record<string, unknown>> {
  const target = await serve(streamOf([delta({ content: 'ok' }, 'stop')]))
  const llm = await model({ baseUrl: target.baseUrl, ...config })
  await collect(llm.stream(request(extra)))
  return target.received[0]!.body
}

const assistants = (body: Record<string, unknown>) =>
  (body.messages as Record<string, unknown>[]).filter((message) => message.role === 'assistant')

describe('DeepSeek thinking', () => {
  it('off sends thinking disabled, and still the reasoning the server streamed', async () => {
    const body = await bodyOf({}, { messages: conversation, thoughtLevel: 'off' })
    expect(body.thinking).toEqual({ type: 'disabled' })
    expect('reasoning_effort' in body).toBe(false)
    const [first, second, last] = assistants(body)
    expect(first!.reasoning_content).toBe('a is needed')
    expect(second!.reasoning_content).toBe('')
    expect('reasoning_content' in last!).toBe(false)
  })

  it('max sends thinking enabled at max, and the reasoning of each tool-calling answer', async () => {
    const body = await bodyOf({}, { messages: conversation, thoughtLevel: 'max' })
    expect(body.model).toBe('deepseek-flash')
    expect(body.thinking).toEqual({ type: 'enabled' })
    expect(body.reasoning_effort).toBe('max')
    const [first, second, last] = assistants(body)
    expect(first!.reasoning_content).toBe('a is needed')
    expect(second!.reasoning_content).toBe('')
    expect('reasoning_content' in last!).toBe(false)
  })

  it('thinking on sends an empty reasoning with a tool call though none was streamed', async () => {
    const body = await bodyOf({}, { messages: unreasoned })
    expect(assistants(body)[0]!.reasoning_content).toBe('')
  })

  it('a request without a level thinks at high; low is sent as low; an unknown level is the default', async () => {
    const plain = await bodyOf({ model: 'deepseek-v4-pro' }, {})
    expect([plain.thinking, plain.reasoning_effort]).toEqual([{ type: 'enabled' }, 'high'])
    const low = await bodyOf({}, { thoughtLevel: 'low' })
    expect([low.thinking, low.reasoning_effort]).toEqual([{ type: 'enabled' }, 'low'])
    const odd = await bodyOf({}, { thoughtLevel: 'medium' })
    expect(odd.reasoning_effort).toBe('high')
  })

  it('the levels offered: off, low, high, max for DeepSeek, reasoning_effort for others', async () => {
    const llm = await model({})
    expect(llm.thoughtLevels()).toMatchObject({
      levels: ['off', 'low', 'high', 'max'],
      default: 'high',
    })
    expect(llm.thoughtLevels('qwen3:8b')).toMatchObject({
      levels: ['default', 'low', 'medium', 'high'],
      default: 'default',
    })
  })

  it("a deepseek- id no table knows gets DeepSeek's switch on DeepSeek's host only", async () => {
    const onDeepSeek = await model({ baseUrl: 'https://api.deepseek.com' })
    expect(onDeepSeek.thoughtLevels('deepseek-v5-flash')?.levels).toEqual(DEEPSEEK_LEVELS)
    const elsewhere = await model({ baseUrl: 'http://127.0.0.1:9/v1' })
    expect(elsewhere.thoughtLevels('deepseek-v5-flash')?.levels).toEqual(EFFORT_LEVELS)
    expect(thinkingStyleOf('DeepSeek-V5', {}, 'https://api.deepseek.com/v1')).toBe('deepseek')
    expect(thinkingStyleOf('qwen3', {}, 'https://api.deepseek.com')).toBe('effort')
  })
})

describe('reasoning by what the server did', () => {
  it('a model of any name gets back the reasoning its server streamed, with each tool call', async () => {
    const body = await bodyOf({ model: 'qwen3:8b' }, { messages: conversation })
    expect(['thinking' in body, 'reasoning_effort' in body]).toEqual([false, false])
    const [first, second, last] = assistants(body)
    expect(first!.reasoning_content).toBe('a is needed')
    expect(second!.reasoning_content).toBe('')
    expect('reasoning_content' in last!).toBe(false)
  })

  it('a server that never streamed reasoning never sees the field', async () => {
    const low = await bodyOf({ model: 'qwen3:8b' }, { messages: unreasoned, thoughtLevel: 'low' })
    expect(low.reasoning_effort).toBe('low')
    expect('thinking' in low).toBe(false)
    expect(assistants(low).some((message) => 'reasoning_content' in message)).toBe(false)
  })

  it("the reasoning a server streams as `reasoning` (vLLM's name) is reasoning too", async () => {
    const target = await serve(
      streamOf([delta({ reasoning: 'think' }), delta({ content: 'ok' }, 'stop')]),
    )
    const llm = await model({ baseUrl: target.baseUrl, model: 'local-thinker' })
    const events = await collect(llm.stream(request()))
    expect(events.filter((event) => event.type === 'reasoning-delta')).toEqual([
      { type: 'reasoning-delta', text: 'think' },
    ])
  })

  it("the models config sets a model's thinking: DeepSeek's switch, or none at all", async () => {
    const models = { mine: { thinking: 'deepseek' as const }, plain: { thinking: 'none' as const } }
    const body = await bodyOf({ model: 'mine', models }, { thoughtLevel: 'off' })
    expect(body.thinking).toEqual({ type: 'disabled' })
    const llm = await model({ models })
    expect(llm.thoughtLevels('plain')).toBeUndefined()
    const none = await bodyOf({ model: 'plain', models }, { thoughtLevel: 'high' })
    expect(['thinking' in none, 'reasoning_effort' in none]).toEqual([false, false])
  })
})

describe("DeepSeek's moved names", () => {
  it('a configured retired name is its successor, with a notice saying so', async () => {
    const target = await serve(streamOf([delta({}, 'stop')]))
    const llm = await model({ baseUrl: target.baseUrl, model: 'deepseek-chat' })
    expect(llm.defaultModel).toBe('deepseek-flash')
    expect(await llm.models()).toEqual(['deepseek-flash'])
    expect(llm.moved()).toMatchObject({ from: 'deepseek-chat', to: 'deepseek-flash' })
    expect(llm.moved()!.notice).toContain('since 2026-07-24')
    expect(llm.moved('deepseek-v4-pro')).toBeUndefined()
    await collect(llm.stream(request()))
    expect(target.received.at(-1)!.body.model).toBe('deepseek-flash')
  })

  it('the V4 Flash aliases are sent as deepseek-flash, with a notice naming it', async () => {
    for (const alias of ['deepseek-v4-flash', 'deepseek-v4-flash-vision-exp']) {
      const body = await bodyOf({ model: alias }, {})
      expect(body.model).toBe('deepseek-flash')
      const llm = await model({ model: alias })
      expect(llm.moved()!.notice).toMatch(/deepseek-flash since 2026-09-10/)
    }
  })

  it("a request naming a retired model (a stored session's) is sent as the successor", async () => {
    const body = await bodyOf({ model: 'deepseek-v4-pro' }, { model: 'deepseek-reasoner' })
    expect(body.model).toBe('deepseek-flash')
    expect(body.thinking).toEqual({ type: 'enabled' })
  })
})
