// The web flags: parsed and checked by parseCli, turned into the web tools' options by
// chooseWeb (the search key from the environment).
import { describe, expect, it } from 'vitest'
import { parseCli } from '../src/cli/cli'
import { chooseWeb } from '../src/cli/web-choice'

describe('web flags', () => {
  it('takes the private switch and a searxng url', () => {
    const command = parseCli(['--web-allow-private', '--web-search-url', 'http://localhost:8888'])
    expect(command).toEqual({
      kind: 'serve',
      web: { allowPrivate: true, searxngUrl: 'http://localhost:8888' },
    })
    expect(chooseWeb((command as { web: object }).web, {})).toEqual({
      ok: true,
      web: { allowPrivate: true, searxngUrl: 'http://localhost:8888' },
    })
  })

  it('refuses a search url that is not http(s) and two providers at once', () => {
    expect(parseCli(['--web-search-url', 'localhost:8888'])).toEqual({
      kind: 'error',
      message: '--web-search-url must be an http(s) URL, got "localhost:8888"',
    })
    expect(parseCli(['--web-search-url', 'http://a', '--web-search-deepseek'])).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('one web search provider'),
    })
  })

  it('gives deepseek search the search key, else the deepseek key, and its base url', () => {
    const command = parseCli(['--web-search-deepseek-url', 'http://127.0.0.1:9/'])
    expect(command).toEqual({
      kind: 'serve',
      web: { deepseek: { baseUrl: 'http://127.0.0.1:9/' } },
    })
    expect(parseCli(['--web-search-deepseek'])).toEqual({ kind: 'serve', web: { deepseek: {} } })
    expect(
      chooseWeb((command as { web: object }).web, {
        DEEPSEEK_API_KEY: 'sk-a',
        DSH_WEB_SEARCH_KEY: 'sk-b',
      }),
    ).toEqual({
      ok: true,
      web: { deepseek: { apiKey: 'sk-b', baseUrl: 'http://127.0.0.1:9/' } },
    })
    expect(chooseWeb({ deepseek: {} }, { DEEPSEEK_API_KEY: 'sk-a' })).toEqual({
      ok: true,
      web: { deepseek: { apiKey: 'sk-a' } },
    })
  })

  it('refuses deepseek search without a key, saying which variable to set', () => {
    expect(chooseWeb({ deepseek: {} }, { DEEPSEEK_API_KEY: ' ' })).toEqual({
      ok: false,
      message: expect.stringContaining('set DEEPSEEK_API_KEY'),
    })
  })
})
