import { describe, expect, it } from 'vitest'
import { isWebError, nonPublicRange } from '../src/index'
import type { WebResolver } from '../src/index'
import { loadWeb, startProxy, startServer } from './helpers/servers'

/** A resolver that knows a few names and counts what it was asked. */
function fakeResolver(names: Record<string, string[]>): WebResolver & { asked: string[] } {
  const asked: string[] = []
  const resolve = async (hostname: string) => {
    asked.push(hostname)
    const found = names[hostname]
    if (found === undefined) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`)
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return Object.assign(resolve, { asked })
}

const PUBLIC = '93.184.215.14'

describe('private targets refused by default', () => {
  it('refuses loopback, localhost, ::1 and mapped addresses before any byte is sent', async () => {
    const server = await startServer((_req, res) => res.end('secret'))
    const web = await loadWeb({ resolver: fakeResolver({ localhost: ['127.0.0.1'] }) })
    for (const url of [
      `${server.origin}/`,
      `http://localhost:${server.port}/`,
      `http://LOCALHOST.:${server.port}/`,
      `http://[::ffff:127.0.0.1]:${server.port}/`,
      `http://127.1:${server.port}/`,
      `http://2130706433:${server.port}/`,
    ]) {
      const error = await web.fetch(url).catch((e: unknown) => e)
      expect(isWebError(error, 'WEB_PRIVATE_ADDRESS'), url).toBe(true)
      expect((error as Error).message).toContain('--web-allow-private')
    }
    expect(server.connections).toBe(0)
  })

  it('refuses http://[::1] before any byte is sent', async () => {
    const server = await startServer((_req, res) => res.end('secret'), '::1').catch(() => undefined)
    const web = await loadWeb()
    const port = server?.port ?? 80
    const error = await web.fetch(`http://[::1]:${port}/`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_PRIVATE_ADDRESS')).toBe(true)
    expect(server?.connections ?? 0).toBe(0)
  })

  it('refuses the metadata address and other non-public ranges', async () => {
    const web = await loadWeb()
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://metadata.google.internal/',
    ]) {
      const error = await web.fetch(url).catch((e: unknown) => e)
      expect(isWebError(error, 'WEB_PRIVATE_ADDRESS'), url).toBe(true)
    }
    expect(
      (await web.fetch('http://169.254.169.254/').catch((e: Error) => e.message)) as string,
    ).toMatch(/link-local address \(where cloud metadata lives\)/)
  })

  it('refuses a name that resolves to loopback, resolving it once, at connect time', async () => {
    const server = await startServer((_req, res) => res.end('secret'))
    const resolver = fakeResolver({ 'rebind.test': ['127.0.0.1'] })
    const web = await loadWeb({ resolver })
    const error = await web.fetch(`http://rebind.test:${server.port}/`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_PRIVATE_ADDRESS')).toBe(true)
    expect((error as Error).message).toContain('rebind.test (it resolves to 127.0.0.1)')
    expect(resolver.asked).toEqual(['rebind.test'])
    expect(server.connections).toBe(0)
  })

  it('refuses a name with any private address among public ones', async () => {
    const server = await startServer((_req, res) => res.end('secret'))
    const resolver = fakeResolver({ 'mixed.test': [PUBLIC, '127.0.0.1'] })
    const web = await loadWeb({ resolver })
    const error = await web.fetch(`http://mixed.test:${server.port}/`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_PRIVATE_ADDRESS')).toBe(true)
    expect(server.connections).toBe(0)
  })

  it('with allowPrivate, connects to exactly the address the resolver gave', async () => {
    const server = await startServer((req, res) => res.end(`host ${req.headers.host}`))
    const resolver = fakeResolver({ 'docs.test': ['127.0.0.1'] })
    const web = await loadWeb({ resolver, allowPrivate: true })
    const page = await web.fetch(`http://docs.test:${server.port}/`)
    expect(page.text).toBe(`host docs.test:${server.port}`)
    expect(server.connections).toBe(1)
  })
})

describe('through a proxy from the environment', () => {
  it('goes through HTTP_PROXY after checking the target host', async () => {
    const server = await startServer((req, res) => res.end(`via proxy ${req.headers.host}`))
    const proxy = await startProxy(server.port)
    const resolver = fakeResolver({ 'docs.test': [PUBLIC] })
    const web = await loadWeb({ resolver, proxyEnv: { HTTP_PROXY: proxy.url } })
    const page = await web.fetch('http://docs.test/guide')
    expect(page.text).toBe('via proxy docs.test')
    expect(proxy.asked).toEqual(['CONNECT docs.test:80 HTTP/1.1'])
    expect(resolver.asked).toEqual(['docs.test'])
  })

  it('refuses a target that resolves to a private address before asking the proxy', async () => {
    const server = await startServer((_req, res) => res.end('secret'))
    const proxy = await startProxy(server.port)
    const resolver = fakeResolver({ 'inside.test': ['10.1.2.3'] })
    const web = await loadWeb({ resolver, proxyEnv: { HTTP_PROXY: proxy.url } })
    const error = await web.fetch('http://inside.test/').catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_PRIVATE_ADDRESS')).toBe(true)
    expect(proxy.asked).toEqual([])
  })

  it('connects directly to a host NO_PROXY lists', async () => {
    const server = await startServer((_req, res) => res.end('direct'))
    const proxy = await startProxy(server.port)
    const resolver = fakeResolver({ 'near.test': ['127.0.0.1'] })
    const web = await loadWeb({
      resolver,
      allowPrivate: true,
      proxyEnv: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,.near.test' },
    })
    expect((await web.fetch(`http://near.test:${server.port}/`)).text).toBe('direct')
    expect(proxy.asked).toEqual([])
  })
})

describe('address ranges', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:169.254.169.254', 'a link-local address (where cloud metadata lives)'],
    ['::7f00:1', 'a loopback address'],
    ['64:ff9b::a00:1', 'a private address'],
    ['fe80::1', 'a link-local address (where cloud metadata lives)'],
    ['224.0.0.1', 'a multicast address'],
    ['::', 'an unspecified address'],
  ])('%s is %s', (address, phrase) => {
    expect(nonPublicRange(address)).toBe(phrase)
  })

  it.each(['8.8.8.8', '2001:4860:4860::8888', PUBLIC])('%s is public', (address) => {
    expect(nonPublicRange(address)).toBeUndefined()
  })
})
