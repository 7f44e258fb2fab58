import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import WebService, { isWebError } from '@deepseek-ai/dsh-web'
import * as WebSearch from '../src/search/index'
import type { WebSearchConfig } from '../src/search/index'

interface Seen {
  url: string
  method: string
  headers: IncomingMessage['headers']
  body: string
}

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A JSON server on 127.0.0.1 answering `answer(seen)`; returns its origin and what it saw. */
async function jsonServer(answer: (seen: Seen, res: ServerResponse) => unknown) {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const request = { url: req.url ?? '', method: req.method ?? '', headers: req.headers, body }
      seen.push(request)
      const reply = answer(request, res)
      if (!res.headersSent) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(reply))
      }
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  cleanups.push(() => new Promise((done) => server.close(done)))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

async function load(config: WebSearchConfig) {
  const ctx = new Context()
  const fiber: Fiber = await ctx.plugin(WebService, { proxyEnv: {} })
  cleanups.push(() => fiber.dispose())
  await ctx.plugin(WebSearch, config)
  return ctx.web
}

describe('searxng', () => {
  it('asks the instance json api for the query and maps its results', async () => {
    const fake = await jsonServer(() => ({
      results: [
        {
          title: 'Node <b>streams</b>',
          url: 'https://nodejs.org/api/stream.html',
          content: 'Streams  are\n everywhere.',
        },
        { title: 'no url', content: 'skipped' },
        { title: 'Second', url: 'https://example.org/2', content: 'x'.repeat(1000) },
        { title: 'Third', url: 'https://example.org/3', content: '' },
      ],
    }))
    const web = await load({ searxng: { url: `${fake.origin}/searx` } })
    const results = await web.search('node streams backpressure', { limit: 2 })
    const asked = new URL(fake.seen[0]!.url, fake.origin)
    expect(asked.pathname).toBe('/searx/search')
    expect(asked.searchParams.get('q')).toBe('node streams backpressure')
    expect(asked.searchParams.get('format')).toBe('json')
    expect(results).toHaveLength(2)
    expect(results[0]).toEqual({
      title: 'Node streams',
      url: 'https://nodejs.org/api/stream.html',
      snippet: 'Streams are everywhere.',
    })
    expect(results[1]!.snippet).toHaveLength(WebSearch.SNIPPET_CHARS)
    expect(results[1]!.snippet.endsWith('…')).toBe(true)
    expect(web.searchProvider?.name).toBe(`SearXNG at ${fake.origin}`)
  })

  it('says how to turn the json api on when the instance answers 403', async () => {
    const fake = await jsonServer((_seen, res) => {
      res.writeHead(403)
      res.end('Forbidden')
    })
    const web = await load({ searxng: { url: fake.origin } })
    const error = await web.search('x', { limit: 5 }).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_SEARCH_FAILED')).toBe(true)
    expect((error as Error).message).toContain('search.formats')
  })
})

describe('deepseek search', () => {
  it('posts the query and count with the key to the overridden base url', async () => {
    const fake = await jsonServer(() => ({
      results: [
        {
          title: 'DeepSeek V4',
          url: 'https://example.com/v4',
          snippet: '',
          summary: 'A summary.',
          rerank_score: 2.4,
        },
      ],
    }))
    const web = await load({ deepseek: { apiKey: 'sk-test', baseUrl: `${fake.origin}/` } })
    const results = await web.search('deepseek v4 release', { limit: 5 })
    const request = fake.seen[0]!
    expect(request.method).toBe('POST')
    expect(request.url).toBe('/v1/tools/search')
    expect(request.headers.authorization).toBe('Bearer sk-test')
    expect(JSON.parse(request.body)).toEqual({ query: 'deepseek v4 release', count: 5 })
    expect(results).toEqual([
      { title: 'DeepSeek V4', url: 'https://example.com/v4', snippet: 'A summary.' },
    ])
  })

  it('reports an error answer with its status', async () => {
    const fake = await jsonServer((_seen, res) => {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end('{"error":{"message":"Authentication Fails"}}')
    })
    const web = await load({ deepseek: { apiKey: 'bad', baseUrl: fake.origin } })
    const error = await web.search('x', { limit: 5 }).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_SEARCH_FAILED')).toBe(true)
    expect((error as Error).message).toContain('401')
  })
})

describe('configuration', () => {
  it('adds no provider without a configuration, and search says how to add one', async () => {
    const web = await load({})
    expect(web.searchProvider).toBeUndefined()
    const error = await web.search('x', { limit: 5 }).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_NO_SEARCH')).toBe(true)
    expect((error as Error).message).toContain('--web-search-url')
  })

  it('removes its providers when it is disposed', async () => {
    const ctx = new Context()
    const web = await ctx.plugin(WebService, { proxyEnv: {} })
    cleanups.push(() => web.dispose())
    const fiber = await ctx.plugin(WebSearch, { searxng: { url: 'http://127.0.0.1:9/' } })
    expect(ctx.web.searchProvider).toBeDefined()
    await fiber.dispose()
    expect(ctx.web.searchProvider).toBeUndefined()
  })
})
