import { describe, expect, it } from 'vitest'
import { isWebError } from '../src/index'
import { runningConversions } from '../src/markdown'
import { loadWeb, startServer } from './helpers/servers'

/** Ordinary HTML of about `bytes`: nested divs, headings, paragraphs, links, lists, tables. */
function bigPage(bytes: number): string {
  const parts = ['<!doctype html><html><head><title>Big page</title></head><body>']
  let size = parts[0]!.length
  for (let i = 0; size < bytes; i++) {
    const block =
      `<div class="s"><div class="in"><h2>Section ${i}</h2><p>Paragraph ${i} with ` +
      `<a href="/link/${i}">a link</a>, <b>bold</b> and <code>code</code>.</p>` +
      `<ul><li>one ${i}</li><li>two <a href="https://example.com/${i}">ex</a></li></ul>` +
      `<table><tr><th>a</th><th>b</th></tr><tr><td>${i}</td><td>cell</td></tr></table></div></div>`
    parts.push(block)
    size += block.length
  }
  parts.push('<p>The end.</p></body></html>')
  return parts.join('')
}

async function servePage(html: string) {
  return startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html)
  })
}

/** Records the longest time between the ticks of a 10 ms timer until `stop` is called. */
function watchLoop(): { stop: () => number } {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 10)
  return {
    stop: () => {
      clearInterval(timer)
      return Math.max(longest, performance.now() - last)
    },
  }
}

describe('html conversion off the event loop', () => {
  it('converts a 1 MiB page while the event loop keeps running', async () => {
    const server = await servePage(bigPage(1024 * 1024))
    const web = await loadWeb({ allowPrivate: true })
    const loop = watchLoop()
    const started = performance.now()
    const page = await web.fetch(`${server.origin}/big`)
    const longest = loop.stop()
    const elapsed = performance.now() - started
    expect(page.title).toBe('Big page')
    expect(page.text).toContain('## Section 0')
    expect(page.text).toContain(`[a link](${server.origin}/link/0)`)
    expect(page.text).toMatch(/\| a \| b \|\n\| --- \| --- \|\n\| 0 \| cell \|/)
    expect(page.text.trimEnd().endsWith('The end.')).toBe(true)
    // On the event loop the conversion held it for nearly the whole fetch (tens of seconds);
    // in the worker the loop's longest pause is a small part of it, however loaded the machine.
    expect(longest).toBeLessThan(elapsed / 2)
  })

  it('finishes a 5 MiB page within the fetch time cap', async () => {
    // Just under the byte cap, so the whole page is read and converted.
    const server = await servePage(bigPage(5 * 1024 * 1024 - 2048))
    const web = await loadWeb({ allowPrivate: true, timeoutMs: 30_000 })
    const page = await web.fetch(`${server.origin}/huge`)
    expect(page.truncated).toBe(false)
    expect(page.bytes).toBeGreaterThan(5 * 1024 * 1024 - 4096)
    expect(page.text.trimEnd().endsWith('The end.')).toBe(true)
    await expect.poll(() => runningConversions()).toBe(0)
  })

  it('ends the conversion at the time cap with WEB_TIMEOUT', async () => {
    const server = await servePage(bigPage(5 * 1024 * 1024))
    const web = await loadWeb({ allowPrivate: true, timeoutMs: 400 })
    const error = await web.fetch(`${server.origin}/huge`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_TIMEOUT')).toBe(true)
    await expect.poll(() => runningConversions()).toBe(0)
  })

  it('ends the worker when the call is cancelled', async () => {
    const html = bigPage(5 * 1024 * 1024)
    let sent = false
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(html, () => (sent = true))
    })
    const web = await loadWeb({ allowPrivate: true })
    const cancel = new AbortController()
    const fetching = web.fetch(`${server.origin}/huge`, { signal: cancel.signal })
    await expect.poll(() => sent && runningConversions() === 1, { interval: 5 }).toBe(true)
    cancel.abort()
    const error = await fetching.catch((e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
    await expect.poll(() => runningConversions()).toBe(0)
  })

  it('fails past its memory bound with WEB_CONVERSION_FAILED and stays up', async () => {
    const server = await servePage(bigPage(5 * 1024 * 1024))
    const web = await loadWeb({ allowPrivate: true, markdownMemoryMb: 8 })
    const error = await web.fetch(`${server.origin}/huge`).catch((e: unknown) => e)
    expect(isWebError(error, 'WEB_CONVERSION_FAILED')).toBe(true)
    expect((error as Error).message).toContain('more than 8 MiB')
    const small = await servePage('<p>still <b>here</b></p>')
    expect((await web.fetch(`${small.origin}/`)).text).toBe('still **here**')
  })

  it('keeps deep nesting from growing the output past the page', async () => {
    const deep = `${'<ul><li>'.repeat(5000)}x${'<blockquote>'.repeat(5000)}y`
    const server = await servePage(deep)
    const web = await loadWeb({ allowPrivate: true })
    const page = await web.fetch(`${server.origin}/deep`)
    expect(page.text).toContain('x')
    expect(page.text.length).toBeLessThan(100)
  })
})
