// Thinking as DeepSeek's API takes it (the switch, the effort, the reasoning of tool-calling
// answers sent back) and as other OpenAI-compatible servers take it (`reasoning_effort` only),
// and DeepSeek's retired names sent as their successor, against a server on 127.0.0.1.
import { describe, expect, it } from 'vitest'
import type { LlmMessage } from '@deepseek-ai/dsh-llm'
import { collect, model, request } from './helpers/client'
import { delta, serveEachTest, streamOf } from './helpers/server'

const serve = serveEachTest()

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

async function bodyOf(
  config: { model?: string },
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
  it('off sends thinking disabled and no reasoning back', async () => {
    const body = await bodyOf({}, { messages: conversation, thoughtLevel: 'off' })
    expect(body.thinking).toEqual({ type: 'disabled' })
    expect('reasoning_effort' in body).toBe(false)
    expect(assistants(body).some((message) => 'reasoning_content' in message)).toBe(false)
  })

  it('max sends thinking enabled at max, and the reasoning of each tool-calling answer', async () => {
    const body = await bodyOf({}, { messages: conversation, thoughtLevel: 'max' })
    expect(body.model).toBe('deepseek-v4-flash')
    expect(body.thinking).toEqual({ type: 'enabled' })
    expect(body.reasoning_effort).toBe('max')
    const [first, second, last] = assistants(body)
    expect(first!.reasoning_content).toBe('a is needed')
    expect(second!.reasoning_content).toBe('')
    expect('reasoning_content' in last!).toBe(false)
  })

  it('a request without a level thinks at high; an unknown level is the default', async () => {
    const plain = await bodyOf({ model: 'deepseek-v4-pro' }, {})
    expect([plain.thinking, plain.reasoning_effort]).toEqual([{ type: 'enabled' }, 'high'])
    const odd = await bodyOf({}, { thoughtLevel: 'medium' })
    expect(odd.reasoning_effort).toBe('high')
  })

  it('the levels offered: off, high, max for DeepSeek, reasoning_effort for others', async () => {
    const llm = await model({})
    expect(llm.thoughtLevels()).toMatchObject({ levels: ['off', 'high', 'max'], default: 'high' })
    expect(llm.thoughtLevels('qwen3:8b')).toMatchObject({
      levels: ['default', 'low', 'medium', 'high'],
      default: 'default',
    })
  })
})

describe('another OpenAI-compatible model', () => {
  it('sends reasoning_effort for a level, nothing by default, and never reasoning back', async () => {
    const plain = await bodyOf({ model: 'qwen3:8b' }, { messages: conversation })
    expect(['thinking' in plain, 'reasoning_effort' in plain]).toEqual([false, false])
    const low = await bodyOf({ model: 'qwen3:8b' }, { messages: conversation, thoughtLevel: 'low' })
    expect(low.reasoning_effort).toBe('low')
    expect('thinking' in low).toBe(false)
    expect(assistants(low).some((message) => 'reasoning_content' in message)).toBe(false)
  })
})

describe("DeepSeek's retired names", () => {
  it('a configured retired name is its successor, with a notice saying so', async () => {
    const target = await serve(streamOf([delta({}, 'stop')]))
    const llm = await model({ baseUrl: target.baseUrl, model: 'deepseek-chat' })
    expect(llm.defaultModel).toBe('deepseek-v4-flash')
    expect(await llm.models()).toEqual(['deepseek-v4-flash'])
    expect(llm.moved()).toMatchObject({ from: 'deepseek-chat', to: 'deepseek-v4-flash' })
    expect(llm.moved()!.notice).toContain('retired')
    expect(llm.moved('deepseek-v4-pro')).toBeUndefined()
    await collect(llm.stream(request()))
    expect(target.received.at(-1)!.body.model).toBe('deepseek-v4-flash')
  })

  it("a request naming a retired model (a stored session's) is sent as the successor", async () => {
    const body = await bodyOf({ model: 'deepseek-v4-pro' }, { model: 'deepseek-reasoner' })
    expect(body.model).toBe('deepseek-v4-flash')
    expect(body.thinking).toEqual({ type: 'enabled' })
  })
})
