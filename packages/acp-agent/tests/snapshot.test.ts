// The installed command and its startup snapshot, over real processes: a copy of the built
// files in a temp directory (its modules outside the bundle reached through a link to this
// package's node_modules), started through a link as npm links a bin. The first start has no
// snapshot, answers from the plain start and makes one in the background; the next starts from
// it (its command line says so) and serves a prompt whose tools load what the bundle leaves
// outside; a snapshot for another Node or an older bundle is passed over; the maker ends with
// the agent; a snapshot holds nothing of the environment it was made in.
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, symlink, utimes } from 'node:fs/promises'
import { writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as acp from '@agentclientprotocol/sdk'
import { assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { SNAPSHOT_FLAGS } from '../src/snapshot'
import { PACKAGE_DIR, ensureBuilt } from './helpers/build'
import { envWithoutKey, openSession, startCommand } from './helpers/spawn-bin'
import type { BinSession } from './helpers/spawn-bin'

const execFileAsync = promisify(execFile)
const DIST_FILES = [
  'dsh-acp',
  'bin.js',
  'dsh-acp.cjs',
  'snapshot-entry.cjs',
  'dsh-acp.cjs.code-cache',
]
const dirs: string[] = []
beforeAll(() => ensureBuilt(), 420_000)
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

interface Install {
  /** The package's dist/ copy. */
  dist: string
  /** A link to the launcher, as npm makes in a prefix's bin/. */
  command: string
  blob: string
  /** A workspace for sessions to open in. */
  work: string
  env: NodeJS.ProcessEnv
}

async function install(): Promise<Install> {
  const root = await mkdtemp(join(tmpdir(), 'dsh-snapshot-'))
  dirs.push(root)
  const dist = join(root, 'pkg', 'dist')
  await mkdir(dist, { recursive: true })
  for (const name of DIST_FILES) await copyFile(join(PACKAGE_DIR, 'dist', name), join(dist, name))
  await writeFile(join(root, 'pkg', 'package.json'), JSON.stringify({ type: 'module' }))
  await symlink(join(PACKAGE_DIR, 'node_modules'), join(root, 'pkg', 'node_modules'))
  await mkdir(join(root, 'bin'))
  const command = join(root, 'bin', 'dsh-acp')
  await symlink(join(dist, 'dsh-acp'), command)
  const work = join(root, 'work')
  await mkdir(work)
  await writeFile(join(work, 'notes.txt'), 'a line about snapshots\n')
  const env = { ...envWithoutKey(), XDG_CACHE_HOME: join(root, 'cache') }
  return { dist, command, blob: join(dist, 'dsh-acp.blob'), work, env }
}

/** The process's command line (Linux's /proc). */
function commandLine(pid: number | undefined): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
}

/** The command line of the agent `run` once the launcher's shell has made way for Node. */
async function agentCommandLine(run: BinSession): Promise<string[]> {
  await expect
    .poll(() => commandLine(run.child.pid).some((word) => word.endsWith('bin.js')))
    .toBe(true)
  return commandLine(run.child.pid)
}

/** Starts the command, which must take the plain start, open a session and end cleanly. */
async function expectPlainStart(app: Install): Promise<void> {
  const run = startCommand(app.command, ['--sessions', join(app.work, '.s')], app.work, app.env)
  expect(await agentCommandLine(run)).not.toContain('--snapshot-blob')
  await openSession(run, app.work)
  expect(await end(run)).toBe(0)
}

async function end(run: BinSession): Promise<number | null> {
  run.child.stdin.end()
  return run.exited
}

describe.runIf(process.platform === 'linux')(
  'the installed command and its startup snapshot',
  () => {
    it('a first start answers from the plain start and makes the snapshot while it runs', async () => {
      const app = await install()
      const run = startCommand(app.command, ['--sessions', join(app.work, '.s')], app.work, app.env)
      const { sessionId } = await openSession(run, app.work)
      expect(sessionId).not.toBe('')
      expect(await agentCommandLine(run)).not.toContain('--snapshot-blob')
      await expect
        .poll(() => readdir(app.dist), { timeout: 60_000, interval: 200 })
        .toContain('dsh-acp.blob.stamp')
      expect(await readFile(`${app.blob}.stamp`, 'utf8')).toBe(
        `${(await execFileAsync('sh', ['-c', 'command -v node'])).stdout.trim()}|${app.dist}\n`,
      )
      expect(await end(run)).toBe(0)
      assertAgentFramesValid(run.frames)
    }, 90_000)

    it('the next start is from the snapshot and serves a prompt that runs bash, grep and read', async () => {
      const app = await install()
      await execFileAsync(app.command, ['--make-snapshot'], { env: app.env })
      const script = join(app.work, '.script.json')
      await writeFile(
        script,
        JSON.stringify({
          turns: [
            {
              text: 'Looking.',
              toolCalls: [
                { id: 'b', name: 'bash', arguments: { command: 'echo made | tr a-z A-Z' } },
                { id: 'g', name: 'grep', arguments: { pattern: 'snapshots' } },
                { id: 'r', name: 'read', arguments: { file_path: 'notes.txt' } },
              ],
            },
            { text: 'Done.' },
          ],
        }),
      )
      const args = ['--script', script, '--mode', 'full-access', '--sessions', join(app.work, '.s')]
      const run = startCommand(app.command, args, app.work, app.env)
      const flags = await agentCommandLine(run)
      expect(flags).toEqual(
        expect.arrayContaining([...SNAPSHOT_FLAGS, '--snapshot-blob', app.blob]),
      )
      const { connection, sessionId } = await openSession(run, app.work)
      const answer = await connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      })
      expect(answer.stopReason).toBe('end_turn')
      // The completed cards' text: the command's output, the match, the file's line.
      const all = run.frames
        .filter((frame) => frame.from === 'agent' && frame.method === 'session/update')
        .map((frame) => frame.text)
        .filter((text) => text.includes('"status":"completed"'))
        .join('\n')
      expect(all).toContain('MADE')
      expect(all).toContain('notes.txt')
      expect(all).toContain('a line about snapshots')
      expect(await end(run)).toBe(0)
      assertAgentFramesValid(run.frames)
    }, 90_000)

    it('passes over a snapshot made for another Node, or older than the bundle', async () => {
      const app = await install()
      await execFileAsync(app.command, ['--make-snapshot'], { env: app.env })
      const stamp = await readFile(`${app.blob}.stamp`, 'utf8')
      await writeFile(`${app.blob}.stamp`, stamp.replace(/^[^|]*/, '/elsewhere/node'))
      await expectPlainStart(app)

      await writeFile(`${app.blob}.stamp`, stamp)
      const later = new Date(Date.now() + 60_000)
      await utimes(join(app.dist, 'dsh-acp.cjs'), later, later)
      await expectPlainStart(app)
    }, 90_000)

    it('the maker ends with the agent, leaving no partial snapshot', async () => {
      const app = await install()
      const run = startCommand(app.command, ['--sessions', join(app.work, '.s')], app.work, app.env)
      await openSession(run, app.work)
      let maker: number | undefined
      await expect
        .poll(async () => (maker = await makerOf(run.child.pid)), { timeout: 60_000, interval: 50 })
        .toBeDefined()
      expect(await end(run)).toBe(0)
      await expect.poll(() => isAlive(maker), { timeout: 10_000 }).toBe(false)
      const left = (await readdir(app.dist)).filter((name) => name.startsWith('dsh-acp.blob'))
      // Either the maker had finished (a whole snapshot and its stamp) or nothing of it is left.
      expect(left.length === 0 || left.sort().join(',') === 'dsh-acp.blob,dsh-acp.blob.stamp').toBe(
        true,
      )
    }, 90_000)

    it('a snapshot holds nothing of the environment it was made in', async () => {
      const app = await install()
      const secret = 'sk-snapshot-test-4f9c2a'
      await execFileAsync(app.command, ['--make-snapshot'], {
        env: { ...app.env, DEEPSEEK_API_KEY: secret, DSH_SECRET_NOTE: secret },
      })
      const blob = await readFile(app.blob)
      expect(blob.length).toBeGreaterThan(1_000_000)
      expect(blob.includes(secret)).toBe(false)
    }, 90_000)
  },
)

/** The pid of the snapshot maker `agent` started, if it is running. */
async function makerOf(agent: number | undefined): Promise<number | undefined> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent !== agent) continue
      if (commandLine(Number(entry)).includes('--build-snapshot')) return Number(entry)
    } catch {
      // gone meanwhile
    }
  }
  return undefined
}

function isAlive(pid: number | undefined): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')
  } catch {
    return false
  }
}
