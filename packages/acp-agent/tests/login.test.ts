// The terminal login over the BUILT bin: `dsh-acp --login` as an editor runs it (the key on
// stdin), checked with a model server on 127.0.0.1 that records the Authorization header it
// is sent; the file it writes (mode 0600 in a 0700 folder); the next start sending that key;
// `--logout` removing it. Every bin runs with a temporary XDG_CONFIG_HOME.
import { spawn, spawnSync } from 'node:child_process'
import { readFile, stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { connectBin, finishBin } from './helpers/bin-client'
import { BIN, ensureBuilt } from './helpers/build'
import { sse } from './helpers/recording-server'
import { envWithoutKey } from './helpers/spawn-bin'
import type { BinExit } from './helpers/spawn-bin'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-login')
const GOOD_KEY = 'sk-good-key'

/** A model server that knows one key: GET /models answers it, and refuses any other. */
async function keyServer() {
  const seen: { method: string; path: string; authorization?: string }[] = []
  const server = createServer((request, response) => {
    const authorization = request.headers.authorization
    seen.push({ method: request.method ?? '', path: request.url ?? '', authorization })
    if (authorization !== `Bearer ${GOOD_KEY}`) {
      return void response.writeHead(401).end('{"error":{"message":"bad key"}}')
    }
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' })
      return void response.end(JSON.stringify({ data: [{ id: 'local-model' }] }))
    }
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(`${sse({ content: 'hello' })}${sse({}, 'stop')}data: [DONE]\n\n`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { seen, url: `http://127.0.0.1:${port}/v1`, close: () => server.close() }
}

/** The bin run to its exit with `input` on stdin (not a terminal: the key is its first line). */
function runWith(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<BinExit> {
  const child = spawn(process.execPath, [BIN, ...args], { env })
  const out = { stdout: '', stderr: '' }
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out.stdout += text))
  child.stderr.setEncoding('utf8').on('data', (text: string) => (out.stderr += text))
  child.stdin.end(input)
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...out })))
}

async function configEnv(): Promise<{ env: NodeJS.ProcessEnv; file: string; dir: string }> {
  const config = await tempDir('config')
  const dir = join(config, 'dsh')
  return {
    env: { ...envWithoutKey(), XDG_CONFIG_HOME: config },
    file: join(dir, 'credentials.json'),
    dir,
  }
}

beforeAll(() => ensureBuilt(), 420_000)

describe('the terminal login', () => {
  let server: Awaited<ReturnType<typeof keyServer>>
  beforeAll(async () => {
    server = await keyServer()
  })
  afterAll(() => server.close())

  it('stores the key from stdin 0600, the next start sends it, and --logout removes it', async () => {
    const { env, file, dir } = await configEnv()
    const login = await runWith(['--login', '--base-url', server.url], `${GOOD_KEY}\n`, env)
    expect(login.stderr).not.toContain('refused')
    expect(login.code).toBe(0)
    expect(login.stdout).toContain('accepted the key')
    expect(login.stdout).toContain(file)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    const stored = JSON.parse(await readFile(file, 'utf8')) as { keys: Record<string, unknown> }
    expect(Object.keys(stored.keys)).toEqual([new URL(server.url).origin])

    // A start with no key in its environment: the stored one goes with every request.
    const home = await tempDir('home')
    const args = ['--base-url', server.url, '--model', 'local-model', '--sessions', join(home, 's')]
    const { bin, client, agent } = await connectBin(args, home, env)
    const session = await agent.request('session/new', { cwd: home, mcpServers: [] })
    const answer = await agent.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'hi' }],
    })
    expect(answer.stopReason).toBe('end_turn')
    await finishBin(bin, client)
    const chat = server.seen.filter((request) => request.method === 'POST')
    expect(chat.map((request) => request.authorization)).toEqual([`Bearer ${GOOD_KEY}`])

    const logout = await runWith(['--logout', '--base-url', server.url], '', env)
    expect(logout.code).toBe(0)
    expect(logout.stdout).toContain(`Removed the key for ${new URL(server.url).origin}`)
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' })
    const again = await runWith(['--logout', '--base-url', server.url], '', env)
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('nothing to remove')])
  }, 60_000)

  it('a key the server refuses is not stored and the login exits 1', async () => {
    const { env, file } = await configEnv()
    const login = await runWith(['--login', '--base-url', server.url], 'sk-wrong\n', env)
    expect(login.code).toBe(1)
    expect(login.stderr).toContain('refused this key (401); nothing was stored')
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' })
  }, 30_000)

  it('a server that cannot be reached is said plainly and the key is stored anyway', async () => {
    const { env, file } = await configEnv()
    const closed = await keyServer()
    closed.close()
    const login = await runWith(['--login', '--base-url', closed.url], `${GOOD_KEY}\n`, env)
    expect(login.code).toBe(0)
    expect(login.stdout).toContain('Could not check the key')
    expect(login.stdout).toContain('could not be reached')
    expect(await readFile(file, 'utf8')).toContain(GOOD_KEY)
  }, 30_000)

  it('an empty line stores nothing and says so', async () => {
    const { env, file } = await configEnv()
    const login = await runWith(['--login', '--base-url', server.url], '\n', env)
    expect(login.code).toBe(1)
    expect(login.stderr).toContain('no key was given; nothing was stored')
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' })
  }, 30_000)
})

/** util-linux's `script`, which runs a command on a pseudo-terminal (as an editor's terminal). */
const PTY = spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux')

describe.skipIf(!PTY)('the login on a terminal (needs util-linux script)', () => {
  it('asks without echoing the key, takes backspace, and stores what was typed', async () => {
    const { env, file } = await configEnv()
    const command = `'${process.execPath}' '${BIN}' --login --base-url http://127.0.0.1:9/v1`
    const child = spawn('script', ['-qfc', command, '/dev/null'], { env })
    let screen = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => (screen += text))
    const exited = new Promise((resolve) => child.on('close', resolve))
    await vi.waitFor(() => expect(screen).toContain('typed without echo: '), { timeout: 20_000 })
    child.stdin.write('sk-secret-x\x7fy\r')
    await vi.waitFor(() => expect(screen).toContain('Stored the key'), { timeout: 20_000 })
    child.stdin.end()
    expect(await exited).toBe(0)
    expect(screen).not.toContain('sk-secret')
    expect(JSON.parse(await readFile(file, 'utf8')).keys['http://127.0.0.1:9'].apiKey).toBe(
      'sk-secret-y',
    )
  }, 60_000)
})
