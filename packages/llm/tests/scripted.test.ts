import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmRequest, LlmScript, LlmStreamEvent } from '@deepseek-ai/dsh-llm'

const request = (signal?: AbortSignal): LlmRequest => ({
  system: 'you are a test',
  messages: [{ role: 'user', content: 'go' }],
  tools: [],
  signal,
})

async function load(
  script: LlmScript,
  options: { chunkSize?: number; delayMs?: number } = {},
): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ScriptedLlm, { script, ...options })
  return ctx
}

async function collect(stream: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

function joined(events: LlmStreamEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  return events.map((event) => (event.type === type ? event.text : '')).join('')
}

describe('playing turns', () => {
  it('text streams in pieces of the chunk size and finishes with stop', async () => {
    const ctx = await load({ turns: [{ text: 'Hello, streaming world' }] }, { chunkSize: 5 })
    const events = await collect(ctx.llm.stream(request()))
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', str' },
      { type: 'text-delta', text: 'eamin' },
      { type: 'text-delta', text: 'g wor' },
      { type: 'text-delta', text: 'ld' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  it('reasoning streams before text', async () => {
    const ctx = await load({ turns: [{ text: 'answer', reasoning: 'think first' }] })
    const events = await collect(ctx.llm.stream(request()))
    const kinds = events.map((event) => event.type)
    expect(kinds.lastIndexOf('reasoning-delta')).toBeLessThan(kinds.indexOf('text-delta'))
    expect(joined(events, 'reasoning-delta')).toBe('think first')
    expect(joined(events, 'text-delta')).toBe('answer')
  })

  it('pieces never split a character outside the basic plane', async () => {
    const ctx = await load({ turns: [{ text: '😀😀😀' }] }, { chunkSize: 1 })
    const events = await collect(ctx.llm.stream(request()))
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: '😀' },
      { type: 'text-delta', text: '😀' },
      { type: 'text-delta', text: '😀' },
    ])
  })

  it('tool calls follow the text with arguments as JSON text and finish tool-calls', async () => {
    const ctx = await load({
      turns: [
        {
          text: 'Let me look.',
          toolCalls: [{ id: 'c1', name: 'read', arguments: { file_path: 'a.txt', limit: 2 } }],
        },
      ],
    })
    const events = await collect(ctx.llm.stream(request()))
    expect(events.slice(-2)).toEqual([
      { type: 'tool-call', id: 'c1', name: 'read', arguments: '{"file_path":"a.txt","limit":2}' },
      { type: 'finish', reason: 'tool-calls' },
    ])
    expect(joined(events, 'text-delta')).toBe('Let me look.')
  })

  it('generated ids are unique and avoid the ids the script uses', async () => {
    const ctx = await load({
      turns: [
        {
          toolCalls: [
            { name: 'read', arguments: {} },
            { id: 'call_2', name: 'read', arguments: {} },
            { name: 'read', arguments: {} },
          ],
        },
        { toolCalls: [{ name: 'edit', arguments: {} }] },
      ],
    })
    const first = await collect(ctx.llm.stream(request()))
    const second = await collect(ctx.llm.stream(request()))
    const ids = [...first, ...second].flatMap((event) =>
      event.type === 'tool-call' ? [event.id] : [],
    )
    expect(ids).toEqual(['call_1', 'call_2', 'call_3', 'call_4'])
  })

  it('one turn is played per request, in order', async () => {
    const ctx = await load({ turns: [{ text: 'one' }, { text: 'two' }] })
    const llm = ctx.llm as ScriptedLlm
    expect([llm.played, llm.remaining]).toEqual([0, 2])
    expect(joined(await collect(llm.stream(request())), 'text-delta')).toBe('one')
    expect(joined(await collect(llm.stream(request())), 'text-delta')).toBe('two')
    expect([llm.played, llm.remaining]).toEqual([2, 0])
  })
})

describe('an exhausted script', () => {
  it('answers with a clear text and finishes stop, every time', async () => {
    const ctx = await load({ turns: [{ text: 'only' }] })
    await collect(ctx.llm.stream(request()))
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await collect(ctx.llm.stream(request()))).toEqual([
        { type: 'text-delta', text: 'The scripted model has no more turns (the script had 1).' },
        { type: 'finish', reason: 'stop' },
      ])
    }
  })

  it('an empty script is exhausted from the first request', async () => {
    const ctx = await load({ turns: [] })
    const events = await collect(ctx.llm.stream(request()))
    expect(joined(events, 'text-delta')).toBe(
      'The scripted model has no more turns (the script had 0).',
    )
  })
})

describe('abort', () => {
  it('an abort during a delay throws LLM_ABORTED at once', async () => {
    const ctx = await load(
      { turns: [{ text: 'slow text here' }] },
      { chunkSize: 2, delayMs: 60_000 },
    )
    const controller = new AbortController()
    const iterator = ctx.llm.stream(request(controller.signal))[Symbol.asyncIterator]()
    expect(await iterator.next()).toEqual({
      done: false,
      value: { type: 'text-delta', text: 'sl' },
    })
    const pending = iterator.next()
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'LlmError', code: 'LLM_ABORTED' })
  })

  it('an abort between pieces stops the stream without a delay', async () => {
    const ctx = await load({ turns: [{ text: 'abcdef' }] }, { chunkSize: 1 })
    const controller = new AbortController()
    const seen: string[] = []
    const run = async (): Promise<void> => {
      for await (const event of ctx.llm.stream(request(controller.signal))) {
        if (event.type === 'text-delta') seen.push(event.text)
        if (seen.length === 2) controller.abort()
      }
    }
    await expect(run()).rejects.toMatchObject({ name: 'LlmError', code: 'LLM_ABORTED' })
    expect(seen).toEqual(['a', 'b'])
  })

  it('a request aborted before it starts does not use up a turn', async () => {
    const ctx = await load({ turns: [{ text: 'kept' }] })
    const controller = new AbortController()
    controller.abort()
    await expect(collect(ctx.llm.stream(request(controller.signal)))).rejects.toMatchObject({
      name: 'LlmError',
      code: 'LLM_ABORTED',
    })
    expect(joined(await collect(ctx.llm.stream(request())), 'text-delta')).toBe('kept')
  })
})

describe('loading as a plugin', () => {
  it('a malformed script in the config is refused naming the entry', async () => {
    const ctx = new Context()
    const script = { turns: [{ toolCalls: [{ name: 'read', arguments: 'x' }] }] }
    await expect(
      ctx.plugin(ScriptedLlm, { script } as unknown as { script: LlmScript }),
    ).rejects.toThrow('turns[0].toolCalls[0].arguments must be an object')
    expect(ctx.get('llm')).toBeUndefined()
  })

  it('disposing the plugin removes ctx.llm', async () => {
    const ctx = new Context()
    const fiber = await ctx.plugin(ScriptedLlm, { script: { turns: [{ text: 'x' }] } })
    expect(ctx.get('llm')).toBeInstanceOf(ScriptedLlm)
    await fiber.dispose()
    expect(ctx.get('llm')).toBeUndefined()
  })
})
