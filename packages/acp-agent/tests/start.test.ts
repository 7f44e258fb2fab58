// The installed bin's start: dist/bin.cjs runs the one-file bundle dist/dsh-acp.cjs from a V8
// code cache beside it. A copy of the two built files in a temp directory starts without a
// cache, with a damaged one and with the one it wrote, and answers initialize and session/new
// each time over its real stdio, every frame schema-valid.
import { execFile } from 'node:child_process'
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as acp from '@agentclientprotocol/sdk'
import { assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { PACKAGE_DIR, ensureBuilt } from './helpers/build'
import { envWithoutKey, startBin } from './helpers/spawn-bin'

const execFileAsync = promisify(execFile)
const dirs: string[] = []
beforeAll(() => ensureBuilt(), 420_000)
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

/**
 * The built starts (CommonJS `bin.cjs`, the ES module `bin.js`) and the bundle copied into a
 * fresh directory whose name a URL would misread (a space, `#`, `%`), no code cache: the
 * CommonJS start's path, the module's, and the cache's.
 */
async function installCopy(): Promise<{ dir: string; bin: string; module: string; cache: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh acp#start%20-'))
  dirs.push(dir)
  for (const name of ['bin.cjs', 'bin.js', 'dsh-acp.cjs']) {
    await copyFile(join(PACKAGE_DIR, 'dist', name), join(dir, name))
  }
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  const cache = join(dir, 'dsh-acp.cjs.code-cache')
  return { dir, bin: join(dir, 'bin.cjs'), module: join(dir, 'bin.js'), cache }
}

/**
 * The model of these starts: an OpenAI-compatible server that is not there, with no key (its
 * list refused at once, no network): the start an editor makes, without DeepSeek's server,
 * which opens no session without a key.
 */
const NO_SERVER = ['--base-url', 'http://127.0.0.1:9/v1']

/** Starts `bin`, opens one session, closes stdin: the exit code and the session's id. */
async function startAndOpen(
  bin: string,
  dir: string,
): Promise<{ code: number | null; id: string }> {
  const run = startBin(
    [...NO_SERVER, '--sessions', join(dir, 'sessions')],
    dir,
    envWithoutKey(),
    bin,
  )
  const connection = acp.client().connect(run.stream)
  const init = await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  })
  expect(init.agentInfo?.name).toBe('dsh')
  const session = await connection.agent.request(acp.methods.agent.session.new, {
    cwd: dir,
    mcpServers: [],
  })
  connection.close()
  run.child.stdin.end()
  const code = await run.exited
  assertAgentFramesValid(run.frames)
  expect(run.frames.filter((frame) => frame.from === 'agent').length).toBeGreaterThan(1)
  return { code, id: session.sessionId }
}

describe('the bin from its bundle and code cache', () => {
  it('without a code cache it answers session/new and writes the cache at exit', async () => {
    const copy = await installCopy()
    const { code, id } = await startAndOpen(copy.bin, copy.dir)
    expect(code).toBe(0)
    expect(id).not.toBe('')
    expect((await stat(copy.cache)).size).toBeGreaterThan(10_000)
  }, 60_000)

  // A cache written again would be a new file renamed over the old one: a new inode.
  it.each([
    ['the CommonJS start', 'bin'],
    ['the start as an ES module', 'module'],
  ] as const)(
    '%s reads the cache the CommonJS start wrote, answers the same and leaves the cache as it was',
    async (_, second) => {
      const copy = await installCopy()
      await startAndOpen(copy.bin, copy.dir)
      const written = await stat(copy.cache)
      const { code } = await startAndOpen(copy[second], copy.dir)
      expect(code).toBe(0)
      const after = await stat(copy.cache)
      expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs])
    },
    60_000,
  )

  it('a damaged code cache is replaced and the bin still answers', async () => {
    const copy = await installCopy()
    const damaged = Buffer.from('not a code cache')
    await writeFile(copy.cache, damaged)
    const { code } = await startAndOpen(copy.bin, copy.dir)
    expect(code).toBe(0)
    const replaced = await readFile(copy.cache)
    expect(replaced.equals(damaged)).toBe(false)
    expect(replaced.length).toBeGreaterThan(10_000)
  }, 60_000)

  it('the version comes from the bundle, with no package.json of the package beside it', async () => {
    const copy = await installCopy()
    const pkg = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      version: string
    }
    const { stdout } = await execFileAsync(process.execPath, [copy.bin, '--version'], {
      cwd: copy.dir,
    })
    expect(stdout).toBe(`dsh-acp ${pkg.version}\n`)
  }, 60_000)
})
