// Planted files and pages over the BUILT bin's real stdio, against a recording model server on
// 127.0.0.1: instruction files that link out of the project (to a file outside, to a secret)
// are not sent to the model, only named; a FIFO named AGENTS.md in a folder a read reaches
// holds nothing: the prompt ends, a later prompt is cancelled while its fetch hangs, the next
// one is answered, and the bin ends when stdin closes and on SIGTERM. A 1 MiB HTML page is
// converted by the worker beside the bundle and reaches the model framed as web content.
import { execFileSync } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { requestText, startKnowledgeBin, writeTree } from './helpers/knowledge-bin'
import type { KnowledgePlaces } from './helpers/knowledge-bin'
import { textAnswer, toolCallAnswer } from './helpers/recording-server'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-planted')
const closers: (() => void)[] = []
afterEach(() => closers.splice(0).forEach((close) => close()))

beforeAll(() => ensureBuilt(), 420_000)

async function places(): Promise<KnowledgePlaces> {
  return {
    home: await tempDir('home'),
    config: await tempDir('config'),
    store: await tempDir('store'),
  }
}

/** An HTTP server on 127.0.0.1 answering with `page`, or never when `page` is undefined. */
async function site(page?: string): Promise<{ url: string; requests: () => number }> {
  let requests = 0
  const sockets = new Set<Socket>()
  const server = createServer((_req, res) => {
    requests++
    if (page === undefined) return
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(page)
  })
  server.on('connection', (socket) => sockets.add(socket))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  closers.push(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/page`, requests: () => requests }
}

describe('planted instruction files', () => {
  it('links out are named, never sent; a fifo holds nothing; cancel and stdin close still work', async () => {
    const outside = await tempDir('outside')
    await writeFile(join(outside, 'notes.txt'), 'OUTSIDE NOTES 1234')
    await writeFile(join(outside, 'shadow'), 'root:SECRET-HASH:19000')
    const repo = await tempDir('repo')
    await writeTree(repo, { '.git/HEAD': 'ref: refs/heads/main\n', 'sub/x.ts': 'export {}\n' })
    await symlink(join(outside, 'notes.txt'), join(repo, 'AGENTS.md'))
    await symlink(join(outside, 'shadow'), join(repo, 'CLAUDE.md'))
    execFileSync('mkfifo', [join(repo, 'sub/AGENTS.md')])
    const hang = await site()
    const run = await startKnowledgeBin(
      await places(),
      [
        toolCallAnswer('r1', 'read', { file_path: 'sub/x.ts' }),
        textAnswer('Read it.'),
        toolCallAnswer('w1', 'web_fetch', { url: hang.url }),
        textAnswer('Still here.'),
      ],
      undefined,
      ['--web-allow-private'],
    )
    const session = await run.open(repo)
    expect((await run.prompt(session, 'Look at sub/x.ts')).stopReason).toBe('end_turn')
    const [first, second] = run.model.bodies
    for (const body of [first!, second!]) {
      expect(requestText(body)).not.toContain('OUTSIDE NOTES')
      expect(requestText(body)).not.toContain('SECRET-HASH')
    }
    expect(requestText(first!)).toContain(
      `[${join(repo, 'AGENTS.md')} is a link to a file outside the session's folders; it was not read.]`,
    )
    expect(run.shown().join('\n')).toContain(
      `CLAUDE.md (not read: a link to ${join(outside, 'shadow')}, outside the session's folders)`,
    )

    const fetching = run.prompt(session, 'Fetch it')
    await expect.poll(() => hang.requests()).toBe(1)
    await run.agent.notify('session/cancel', { sessionId: session })
    expect((await fetching).stopReason).toBe('cancelled')
    expect((await run.prompt(session, 'Are you there?')).stopReason).toBe('end_turn')
    expect(run.shown()).toContain('Still here.')

    run.bin.child.stdin.end()
    expect(await run.bin.exited).toBe(0)
    run.model.close()
  })

  it('a session with a fifo named AGENTS.md at its root opens and the bin ends on SIGTERM', async () => {
    const repo = await tempDir('repo')
    await mkdir(join(repo, '.git'))
    execFileSync('mkfifo', [join(repo, 'AGENTS.md')])
    const run = await startKnowledgeBin(await places(), [textAnswer('Hello.')])
    const session = await run.open(repo)
    expect((await run.prompt(session, 'Hi')).stopReason).toBe('end_turn')
    expect(run.shown()).toContain('Hello.')
    await run.close()
    expect(run.bin.child.signalCode ?? run.bin.child.exitCode).not.toBeNull()
  })
})

describe('a big page over the bin', () => {
  it('a 1 MiB html page is converted beside the bundle and framed as web content', async () => {
    const blocks: string[] = []
    for (let i = 0, size = 0; size < 1024 * 1024; i++) {
      const block = `<div><h2>Section ${i}</h2><p>Text ${i} <a href="/l/${i}">link</a></p><ul><li>${i}</li></ul></div>`
      blocks.push(block)
      size += block.length
    }
    const page = await site(
      `<html><head><title>Big</title></head><body>${blocks.join('')}</body></html>`,
    )
    const run = await startKnowledgeBin(
      await places(),
      [toolCallAnswer('w1', 'web_fetch', { url: page.url }), textAnswer('Read the page.')],
      undefined,
      ['--web-allow-private'],
    )
    try {
      const session = await run.open(await tempDir('work'))
      expect((await run.prompt(session, 'Read the page')).stopReason).toBe('end_turn')
      const tool = run.model.bodies[1]!.messages.find((message) => message.role === 'tool')
      expect(tool?.content).toMatch(
        /untrusted web content[^\n]*\n<<<web-content [0-9a-f]{12}>>>\nTitle: Big\n\n## Section 0/,
      )
      expect(tool?.content).toContain(`[link](${new URL(page.url).origin}/l/0)`)
    } finally {
      await run.close()
    }
  })
})
