import { Context } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import OpenAiLlm, { DEFAULT_MODEL } from '@deepseek-ai/dsh-llm-openai'
import { collect, failure, model, request } from './helpers/client'
import { delta, errorOf, serveEachTest, sseText, startServer, streamOf } from './helpers/server'

const serve = serveEachTest()

describe('streams', () => {
  it('a text stream yields its deltas and a finish with usage', async () => {
    const { baseUrl } = await serve(
      streamOf([
        delta({ role: 'assistant', content: '' }),
        delta({ content: 'Hel' }),
        delta({ content: 'lo' }),
        delta({}, 'stop'),
        { choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } },
      ]),
    )
    const llm = await model({ baseUrl })
    expect(await collect(llm.stream(request()))).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 9, outputTokens: 2 } },
    ])
  })

  it('a tool-call stream assembles two calls split across deltas', async () => {
    const call = (index: number, fn: object, id?: string): object =>
      delta({ tool_calls: [{ index, ...(id ? { id, type: 'function' } : {}), function: fn }] })
    const { baseUrl } = await serve(
      streamOf([
        delta({ content: 'Reading.' }),
        call(0, { name: 'read', arguments: '' }, 'call_a'),
        call(0, { arguments: '{"file_' }),
        call(0, { arguments: 'path": "a.txt"' }),
        call(1, { name: 'write', arguments: '{"file_path":' }, 'call_b'),
        call(0, { arguments: '}' }),
        call(1, { arguments: '"b.txt","content":"x"}' }),
        delta({}, 'tool_calls'),
      ]),
    )
    const llm = await model({ baseUrl })
    const events = await collect(llm.stream(request()))
    expect(events).toEqual([
      { type: 'text-delta', text: 'Reading.' },
      { type: 'tool-call', id: 'call_a', name: 'read', arguments: '{"file_path": "a.txt"}' },
      {
        type: 'tool-call',
        id: 'call_b',
        name: 'write',
        arguments: '{"file_path":"b.txt","content":"x"}',
      },
      { type: 'finish', reason: 'tool-calls' },
    ])
  })

  it('a reasoning stream yields reasoning deltas before the answer', async () => {
    const { baseUrl } = await serve(
      streamOf([
        delta({ reasoning_content: 'Think', content: null }),
        delta({ reasoning_content: 'ing.', content: null }),
        delta({ content: 'Answer.' }),
        delta({}, 'stop'),
      ]),
    )
    const llm = await model({ baseUrl, model: 'deepseek-v4-pro' })
    expect(await collect(llm.stream(request()))).toEqual([
      { type: 'reasoning-delta', text: 'Think' },
      { type: 'reasoning-delta', text: 'ing.' },
      { type: 'text-delta', text: 'Answer.' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  it('awkward framing over the wire gives the same events', async () => {
    const body = `: open\r\n\r\n${sseText([delta({ content: 'é😀' }), delta({}, 'stop')]).replaceAll('\n', '\r\n')}data: [DONE]\r\n\r\n`
    const bytes = Buffer.from(body)
    const { baseUrl } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const writeFrom = (at: number): void => {
        if (at >= bytes.length) return void res.end()
        res.write(bytes.subarray(at, at + 3), () => setImmediate(() => writeFrom(at + 3)))
      }
      writeFrom(0)
    })
    const llm = await model({ baseUrl })
    expect(await collect(llm.stream(request()))).toEqual([
      { type: 'text-delta', text: 'é😀' },
      { type: 'finish', reason: 'stop' },
    ])
  })
})

describe('the request', () => {
  it('the body maps the system prompt, messages, tool results and tools', async () => {
    const target = await serve(streamOf([delta({ content: 'ok' }, 'stop')]))
    const llm = await model({ baseUrl: `${target.baseUrl}/v1/`, model: 'my-model', apiKey: 'sk-1' })
    const parameters = { type: 'object', properties: { file_path: { type: 'string' } } }
    await collect(
      llm.stream(
        request({
          messages: [
            { role: 'user', content: 'read a' },
            {
              role: 'assistant',
              content: '',
              toolCalls: [{ id: 'c1', name: 'read', arguments: '{"file_path":"a"}' }],
            },
            { role: 'tool', toolCallId: 'c1', content: 'Error: not found', isError: true },
            { role: 'assistant', content: 'It is missing.' },
            { role: 'user', content: 'thanks' },
          ],
          tools: [{ name: 'read', description: 'Reads a file.', parameters }],
        }),
      ),
    )
    const [received] = target.received
    expect(received!.path).toBe('/v1/chat/completions')
    expect(received!.headers.authorization).toBe('Bearer sk-1')
    expect(received!.headers['content-type']).toBe('application/json')
    expect(received!.body).toEqual({
      model: 'my-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'read a' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'read', arguments: '{"file_path":"a"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'Error: not found' },
        { role: 'assistant', content: 'It is missing.' },
        { role: 'user', content: 'thanks' },
      ],
      tools: [
        { type: 'function', function: { name: 'read', description: 'Reads a file.', parameters } },
      ],
    })
  })

  it('a request model wins over the configured one and no tools means no tools key', async () => {
    const target = await serve(streamOf([delta({}, 'stop')]))
    const llm = await model({ baseUrl: target.baseUrl })
    await collect(llm.stream(request({ model: 'deepseek-v4-pro', system: '' })))
    const body = target.received[0]!.body
    expect(body.model).toBe('deepseek-v4-pro')
    expect('tools' in body).toBe(false)
    expect(body.messages).toEqual([{ role: 'user', content: 'hi' }])
  })
})

describe('api keys', () => {
  const names = ['DSH_API_KEY', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY'] as const
  const saved = names.map((name) => process.env[name])

  afterEach(() => {
    names.forEach((name, index) => {
      const value = saved[index]
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    })
  })

  const keyOf = async (env: Partial<Record<(typeof names)[number], string>>) => {
    for (const name of names) delete process.env[name]
    Object.assign(process.env, env)
    const target = await startServer(streamOf([delta({}, 'stop')]))
    try {
      const ctx = new Context()
      await ctx.plugin(OpenAiLlm, { baseUrl: target.baseUrl })
      for (const name of names) process.env[name] = 'changed-later'
      await collect(ctx.llm.stream(request()))
      return target.received[0]!.headers.authorization
    } finally {
      await target.close()
    }
  }

  it('the key is read at construction from DSH_API_KEY before DEEPSEEK_API_KEY before OPENAI_API_KEY', async () => {
    expect(await keyOf({ DEEPSEEK_API_KEY: 'from-env' })).toBe('Bearer from-env')
    expect(await keyOf({ DSH_API_KEY: 'dsh', DEEPSEEK_API_KEY: 'ds', OPENAI_API_KEY: 'oa' })).toBe(
      'Bearer dsh',
    )
    expect(await keyOf({ DEEPSEEK_API_KEY: 'ds', OPENAI_API_KEY: 'oa' })).toBe('Bearer ds')
    expect(await keyOf({ OPENAI_API_KEY: 'oa' })).toBe('Bearer oa')
  })

  it('a resolveApiKey hook is asked at each request, so a key that arrives later is sent', async () => {
    const answer = streamOf([delta({}, 'stop')])
    const target = await serve(answer, answer)
    const stored: { key?: string } = {}
    const resolveApiKey = () => stored.key
    const llm = await model({ baseUrl: target.baseUrl, apiKey: 'loaded', resolveApiKey })
    await collect(llm.stream(request()))
    stored.key = 'logged-in'
    await collect(llm.stream(request()))
    expect(target.received.map((r) => r.headers.authorization)).toEqual([
      'Bearer loaded',
      'Bearer logged-in',
    ])
  })

  it('with no key the request goes without an authorization header', async () => {
    expect(await keyOf({})).toBeUndefined()
  })

  it('a refused key is LLM_AUTH at once, with no retry', async () => {
    const target = await serve(errorOf(401, 'Authentication Fails (bad key)'))
    const llm = await model({ baseUrl: target.baseUrl })
    const error = await failure(llm.stream(request()))
    expect([error.code, error.status]).toEqual(['LLM_AUTH', 401])
    expect(error.message).toBe(
      'the API key was refused (401) — check DSH_API_KEY, DEEPSEEK_API_KEY, OPENAI_API_KEY, the key stored by dsh-acp --login, or the apiKey option: Authentication Fails (bad key)',
    )
    expect(target.received).toHaveLength(1)
  })
})

describe('config', () => {
  it('a plugin loads with no config', async () => {
    const ctx = new Context()
    await ctx.plugin(OpenAiLlm)
    expect(ctx.get('llm')).toBeInstanceOf(OpenAiLlm)
  })

  it('a request without a model uses the default one when the config names none', async () => {
    const target = await serve(streamOf([delta({}, 'stop')]))
    const ctx = new Context()
    await ctx.plugin(OpenAiLlm, { baseUrl: target.baseUrl, apiKey: 'k' })
    await collect(ctx.llm.stream(request()))
    expect(target.received[0]!.body.model).toBe(DEFAULT_MODEL)
    expect(DEFAULT_MODEL).toBe('deepseek-flash')
  })

  it('a config Cordis cannot validate is refused when the plugin loads', async () => {
    const ctx = new Context()
    await expect(ctx.plugin(OpenAiLlm, { baseUrl: 'ftp://example.com' })).rejects.toThrow(
      /invalid config:[^]*\(at baseUrl\)/,
    )
    await expect(ctx.plugin(OpenAiLlm, { maxRetries: 11 })).rejects.toThrow(
      /invalid config:[^]*\(at maxRetries\)/,
    )
    expect(ctx.get('llm')).toBeUndefined()
  })
})
