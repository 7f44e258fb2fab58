import { describe, expect, it } from 'vitest'
import { isWebError } from '../src/index'
import { loadWeb, startServer } from './helpers/servers'

const PAGE = `<!doctype html><html><head><title>Migration &amp; guide</title>
<style>body { color: red }</style><script>window.tracking = 1</script></head>
<body><h1>Upgrading</h1><p>Read the <a href="https://example.org/changelog">changelog</a> first.</p>
<table><thead><tr><th>Old</th><th>New</th></tr></thead>
<tbody><tr><td>init()</td><td>start()</td></tr><tr><td>stop()</td><td>end()</td></tr></tbody></table>
</body></html>`

describe('pages', () => {
  it('turns an html page with a table and links into markdown', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(PAGE)
    })
    const web = await loadWeb({ allowPrivate: true })
    const page = await web.fetch(`${server.origin}/guide`)
    expect(page.status).toBe(200)
    expect(page.contentType).toBe('text/html')
    expect(page.title).toBe('Migration & guide')
    expect(page.text).toContain('# Upgrading')
    expect(page.text).toContain('[changelog](https://example.org/changelog)')
    expect(page.text).toMatch(/\| Old\s*\| New\s*\|/)
    expect(page.text).toMatch(/\| init\(\) \| start\(\) \|/)
    expect(page.text).not.toContain('tracking')
    expect(page.text).not.toContain('color: red')
    expect(page.bytes).toBe(Buffer.byteLength(PAGE))
    expect(page.truncated).toBe(false)
  })

  it('gives plain text and json as they are, decoded by their charset', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/latin1') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]))
      } else {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"a": 1}')
      }
    })
    const web = await loadWeb({ allowPrivate: true })
    expect((await web.fetch(`${server.origin}/latin1`)).text).toBe('café')
    expect((await web.fetch(`${server.origin}/data`)).text).toBe('{"a": 1}')
  })

  it('returns a 404 with its status and body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('no such page')
    })
    const web = await loadWeb({ allowPrivate: true })
    const page = await web.fetch(`${server.origin}/missing`)
    expect(page.status).toBe(404)
    expect(page.statusText).toBe('Not Found')
    expect(page.text).toBe('no such page')
  })

  it('refuses a binary type without reading its body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end(Buffer.alloc(1000))
    })
    const web = await loadWeb({ allowPrivate: true })
    const error = await web.fetch(`${server.origin}/logo.png`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_NOT_TEXT')).toBe(true)
    expect((error as Error).message).toContain('image/png')
  })

  it('refuses a body without a type that holds binary bytes', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200)
      res.end(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]))
    })
    const web = await loadWeb({ allowPrivate: true })
    const error = await web.fetch(`${server.origin}/a.out`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_NOT_TEXT')).toBe(true)
  })

  it('refuses a url that is not http(s) with WEB_BAD_URL', async () => {
    const web = await loadWeb()
    for (const url of ['file:///etc/passwd', 'ftp://example.org/', 'not a url']) {
      const error = await web.fetch(url).catch((e: unknown) => e)
      expect(isWebError(error, 'WEB_BAD_URL')).toBe(true)
    }
  })
})

describe('redirects', () => {
  it('follows a redirect on the same origin', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/old') {
        res.writeHead(301, { location: '/new' })
        res.end()
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(`at ${req.url}`)
      }
    })
    const web = await loadWeb({ allowPrivate: true })
    const page = await web.fetch(`${server.origin}/old`)
    expect(page.status).toBe(200)
    expect(page.finalUrl).toBe(`${server.origin}/new`)
    expect(page.text).toBe('at /new')
    expect(server.requests.map((r) => r.url)).toEqual(['/old', '/new'])
  })

  it('reports a redirect to another host without following it', async () => {
    const other = await startServer((_req, res) => res.end('elsewhere'))
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${other.port}/landing` })
      res.end()
    })
    const web = await loadWeb({ allowPrivate: true })
    const page = await web.fetch(`${server.origin}/go`)
    expect(page.redirect).toEqual({
      location: `http://localhost:${other.port}/landing`,
      status: 302,
    })
    expect(page.text).toBe('')
    expect(other.connections).toBe(0)
  })

  it('reports a redirect to another port of the same host without following it', async () => {
    const other = await startServer((_req, res) => res.end('another service'))
    const server = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${other.port}/admin` })
      res.end()
    })
    const web = await loadWeb({ allowPrivate: true })
    const page = await web.fetch(`${server.origin}/go`)
    expect(page.redirect).toEqual({ location: `http://127.0.0.1:${other.port}/admin`, status: 302 })
    expect(page.text).toBe('')
    expect(other.connections).toBe(0)
  })

  it('stops after the redirect limit with WEB_REDIRECT', async () => {
    const server = await startServer((req, res) => {
      const n = Number(req.url?.slice(1) ?? 0)
      res.writeHead(302, { location: `/${n + 1}` })
      res.end()
    })
    const web = await loadWeb({ allowPrivate: true, maxRedirects: 3 })
    const error = await web.fetch(`${server.origin}/0`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_REDIRECT')).toBe(true)
    expect(server.requests).toHaveLength(4)
  })
})

describe('caps', () => {
  it('cuts a 50 MB body at the byte cap without downloading the rest', async () => {
    const total = 50 * 1024 * 1024
    let sent = 0
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(total) })
      const chunk = Buffer.alloc(64 * 1024, 'a')
      const pump = (): void => {
        while (sent < total) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        res.end()
      }
      res.on('close', () => res.removeAllListeners('drain'))
      pump()
    })
    const web = await loadWeb({ allowPrivate: true, maxBytes: 1024 * 1024 })
    const page = await web.fetch(`${server.origin}/huge.txt`)
    expect(page.truncated).toBe(true)
    expect(page.bytes).toBe(1024 * 1024)
    expect(page.text).toHaveLength(1024 * 1024)
    // The server stopped once the client closed: far less than the whole body went out.
    expect(server.connections).toBe(1)
    expect(sent).toBeLessThan(total / 4)
  })

  it('times out a server that never answers with WEB_TIMEOUT', async () => {
    const server = await startServer(() => undefined)
    const web = await loadWeb({ allowPrivate: true, timeoutMs: 300 })
    const error = await web.fetch(`${server.origin}/slow`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_TIMEOUT')).toBe(true)
    expect((error as Error).message).toContain('0.3 s')
  })

  it('times out a body that stalls half way', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('the first half')
    })
    const web = await loadWeb({ allowPrivate: true, timeoutMs: 300 })
    const error = await web.fetch(`${server.origin}/stall`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_TIMEOUT')).toBe(true)
  })
})
