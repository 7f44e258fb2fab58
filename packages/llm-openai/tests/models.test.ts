// What the adapter tells a host about its models — the list (the server's GET /models, else
// DeepSeek's, else the configured model), each model's window and prices — and what it reads
// of a response that matters to a long session: the cache hits of the usage, and a refusal
// as too long told apart from other refusals.
import { describe, expect, it } from 'vitest'
import { DEEPSEEK_FLASH_PRICES, DEEPSEEK_PRO_PRICES, modelList } from '@deepseek-ai/dsh-llm-openai'
import { DEFAULT_CONTEXT_WINDOW } from '@deepseek-ai/dsh-llm'
import { collect, failure, model, request } from './helpers/client'
import { delta, errorOf, serveEachTest, streamOf } from './helpers/server'

const serve = serveEachTest()

describe('the model list', () => {
  it("the server's GET /models list is the list, with the configured model", async () => {
    const target = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b' }, { id: 'llama3.2' }] }))
    })
    const llm = await model({ baseUrl: `${target.baseUrl}/v1`, model: 'mine', apiKey: 'k' })
    expect(await llm.models()).toEqual(['mine', 'qwen3:8b', 'llama3.2'])
    expect(target.received.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/v1/models', 'Bearer k'],
    ])
  })

  it('a server without /models offers the configured model alone', async () => {
    const target = await serve(errorOf(404, 'no such route'))
    const llm = await model({ baseUrl: target.baseUrl, model: 'local-model' })
    expect(await llm.models()).toEqual(['local-model'])
  })

  it("without a list from the server, DeepSeek's host offers DeepSeek's two models", () => {
    expect(modelList('https://api.deepseek.com', 'deepseek-flash', undefined)).toEqual([
      'deepseek-flash',
      'deepseek-v4-pro',
    ])
    expect(modelList('https://api.deepseek.com/v1', 'my-model', undefined)).toEqual([
      'my-model',
      'deepseek-flash',
      'deepseek-v4-pro',
    ])
    expect(modelList('http://127.0.0.1:8080/v1', 'local', undefined)).toEqual(['local'])
  })
})

describe('windows and prices', () => {
  it("DeepSeek's models have their published window and prices", async () => {
    const llm = await model({})
    expect(llm.modelInfo()).toEqual({
      id: 'deepseek-flash',
      contextWindow: 1_048_576,
      maxOutputTokens: 393_216,
      prices: DEEPSEEK_FLASH_PRICES,
      imageInput: true,
    })
    expect(llm.modelInfo('deepseek-v4-pro')).toEqual({
      id: 'deepseek-v4-pro',
      contextWindow: 1_048_576,
      maxOutputTokens: 393_216,
      prices: DEEPSEEK_PRO_PRICES,
    })
    expect(DEEPSEEK_FLASH_PRICES).toMatchObject({ inputPerMillion: 0.3, outputPerMillion: 1.2 })
    expect(DEEPSEEK_FLASH_PRICES.offPeak).toEqual({
      inputPerMillion: 0.15,
      cachedInputPerMillion: 0.003,
      outputPerMillion: 0.6,
    })
    expect(DEEPSEEK_PRO_PRICES.cachedInputPerMillion).toBeLessThan(
      DEEPSEEK_PRO_PRICES.inputPerMillion,
    )
  })

  it('an unknown model gets the stated default window and no prices', async () => {
    const llm = await model({ model: 'qwen3:8b' })
    expect(llm.modelInfo()).toEqual({ id: 'qwen3:8b', contextWindow: DEFAULT_CONTEXT_WINDOW })
  })

  it('the configured window and prices win for every model', async () => {
    const prices = {
      currency: 'EUR',
      inputPerMillion: 1,
      cachedInputPerMillion: 0.5,
      outputPerMillion: 2,
    }
    const llm = await model({ contextWindow: 8192, prices })
    expect(llm.modelInfo('deepseek-v4-pro')).toEqual({
      id: 'deepseek-v4-pro',
      contextWindow: 8192,
      maxOutputTokens: 393_216,
      prices,
    })
  })
})

describe('usage and refusals', () => {
  it("the usage's prompt cache hits are read from DeepSeek's and OpenAI's fields", async () => {
    const usage = { prompt_tokens: 100, completion_tokens: 7, prompt_cache_hit_tokens: 64 }
    const target = await serve(
      streamOf([delta({ content: 'a' }, 'stop'), { choices: [], usage }]),
      streamOf([
        delta({ content: 'b' }, 'stop'),
        {
          choices: [],
          usage: {
            prompt_tokens: 50,
            completion_tokens: 1,
            prompt_tokens_details: { cached_tokens: 32 },
          },
        },
      ]),
    )
    const llm = await model({ baseUrl: target.baseUrl })
    const first = (await collect(llm.stream(request()))).at(-1)
    const second = (await collect(llm.stream(request()))).at(-1)
    expect(first).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { inputTokens: 100, outputTokens: 7, cachedInputTokens: 64 },
    })
    expect(second).toMatchObject({ usage: { inputTokens: 50, cachedInputTokens: 32 } })
  })

  it('a 400 saying the context length is passed is LLM_CONTEXT_TOO_LONG, with no retry', async () => {
    const target = await serve(
      errorOf(
        400,
        "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens.",
      ),
    )
    const error = await failure((await model({ baseUrl: target.baseUrl })).stream(request()))
    expect([error.code, error.status]).toEqual(['LLM_CONTEXT_TOO_LONG', 400])
    expect(target.received).toHaveLength(1)
  })

  it('another 400 stays LLM_HTTP', async () => {
    const target = await serve(errorOf(400, 'messages[1].role is not valid'))
    const error = await failure((await model({ baseUrl: target.baseUrl })).stream(request()))
    expect(error.code).toBe('LLM_HTTP')
  })
})
