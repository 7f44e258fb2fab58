// The editor going away, over the BUILT bin's real stdio: a closed stderr is ignored; the end
// of stdin, a broken stdout, SIGTERM or all three pipes closing end the agent within seconds
// wherever it is (mid-stream of model text, mid-command, mid-MCP call), with its commands and
// its MCP servers' whole process groups; the session's lock goes with it, so a new agent loads
// the session at once; and an unreadable log is refused as such. Every frame the agents write
// is checked against the ACP schema.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { FileSessionStore } from '@deepseek-ai/dsh-session-store'
import { ensureBuilt } from './helpers/build'
import { RawBin, isRunning, processesIn } from './helpers/raw-bin'
import { QUIET_MODEL } from './helpers/spawn-bin'
import { startStreamingModel } from './helpers/streaming-model'
import type { StreamingModel } from './helpers/streaming-model'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-gone')
const MCP_SERVER = fileURLToPath(
  new URL('../../mcp/tests/fixtures/stdio-server.mjs', import.meta.url),
)
/** How long an ended agent may take to be gone, on a loaded machine. */
const GONE_MS = 3000

beforeAll(() => ensureBuilt(), 420_000)

const bins: RawBin[] = []
afterAll(() => {
  for (const bin of bins) if (isRunning(bin.pid)) bin.child.kill('SIGKILL')
})

function startBin(args: string[], home: string): RawBin {
  const bin = new RawBin(args, home)
  bins.push(bin)
  return bin
}

async function initialize(bin: RawBin): Promise<void> {
  const answer = await bin.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  expect(answer.result).toMatchObject({ protocolVersion: 1 })
}

/** Resolves once `pid` is gone; the time it took, in ms. */
async function gone(pid: number, since: number): Promise<number> {
  await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: GONE_MS, interval: 20 })
  return performance.now() - since
}

describe('an editor that closes the agent stderr', () => {
  it('is ignored: the agent logs into nothing, keeps answering, and ends with stdin', async () => {
    const home = await tempDir('home')
    const bin = startBin(['--sessions', join(home, 'sessions')], home)
    await initialize(bin)
    bin.child.stderr.destroy()
    // An oversized line is logged to stderr: the write fails (EPIPE) and must change nothing.
    bin.child.stdin.write(Buffer.alloc(33 * 1024 * 1024, 'x'))
    bin.child.stdin.write('\n')
    await initialize(bin)
    const start = performance.now()
    bin.child.stdin.end()
    await gone(bin.pid, start)
    expect(await bin.exited).toBe(0)
    assertAgentFramesValid(bin.recorder.frames)
  }, 60_000)
})

/** A session in `workspace` whose turn is under way; its id. */
async function openTurn(bin: RawBin, workspace: string): Promise<string> {
  await initialize(bin)
  const opened = await bin.request('session/new', { cwd: workspace, mcpServers: [] })
  const { sessionId } = opened.result as { sessionId: string }
  bin.send('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] })
  return sessionId
}

/** A new agent on the same store loads the session at once (its lock was given back). */
async function loadsAgain(store: string, home: string, workspace: string, sessionId: string) {
  const next = startBin([...QUIET_MODEL, '--sessions', store], home)
  await initialize(next)
  const loaded = await next.request('session/load', { sessionId, cwd: workspace, mcpServers: [] })
  expect(loaded.error).toBeUndefined()
  next.child.stdin.end()
  await gone(next.pid, performance.now())
  assertAgentFramesValid(next.recorder.frames)
}

describe('ending the agent mid-stream of model text', () => {
  let model: StreamingModel
  beforeAll(async () => {
    model = await startStreamingModel({ pieces: 1_000_000, intervalMs: 2 })
  })
  afterAll(() => model.close())

  const ends: [string, (bin: RawBin) => void][] = [
    ['the end of stdin', (bin) => bin.child.stdin.end()],
    ['a broken stdout', (bin) => bin.child.stdout.destroy()],
    ['SIGTERM', (bin) => bin.child.kill('SIGTERM')],
    ['the editor dying (every pipe closed)', (bin) => bin.die()],
  ]
  it.each(ends)(
    '%s ends it within seconds and frees the session',
    async (_, end) => {
      const home = await tempDir('home')
      const workspace = await tempDir('work')
      const store = join(home, 'sessions')
      const args = ['--sessions', store, '--base-url', model.url, '--mode', 'full-access']
      const bin = startBin(args, home)
      const sessionId = await openTurn(bin, workspace)
      await bin.update('agent_message_chunk')
      const start = performance.now()
      end(bin)
      const took = await gone(bin.pid, start)
      console.log(`editor-gone: the agent was gone ${Math.round(took)} ms after ${_}`)
      assertAgentFramesValid(bin.recorder.frames)
      await loadsAgain(store, home, workspace, sessionId)
    },
    60_000,
  )
})

describe('ending the agent while a tool runs', () => {
  it('mid-command: the agent and the command are gone within seconds of SIGTERM', async () => {
    const model = await startStreamingModel({
      pieces: 2,
      intervalMs: 5,
      call: { name: 'bash', arguments: { command: 'sleep 60; echo never' } },
    })
    try {
      const home = await tempDir('home')
      const workspace = await tempDir('work')
      const args = ['--sessions', join(home, 'sessions'), '--base-url', model.url]
      const bin = startBin([...args, '--mode', 'full-access'], home)
      await openTurn(bin, workspace)
      await vi.waitFor(() => expect(processesIn(workspace).length).toBeGreaterThan(0), {
        timeout: 20_000,
        interval: 50,
      })
      const start = performance.now()
      bin.child.kill('SIGTERM')
      await gone(bin.pid, start)
      await vi.waitFor(() => expect(processesIn(workspace)).toEqual([]), { timeout: GONE_MS })
      assertAgentFramesValid(bin.recorder.frames)
    } finally {
      await model.close()
    }
  }, 60_000)

  it('mid-MCP call: the agent, the server and what the server started end with stdin', async () => {
    const model = await startStreamingModel({
      pieces: 2,
      intervalMs: 5,
      call: { name: 'mcp__notes__slow', arguments: { ms: 60_000 } },
    })
    try {
      const home = await tempDir('home')
      const workspace = await tempDir('work')
      const log = join(home, 'server.log')
      const args = ['--sessions', join(home, 'sessions'), '--base-url', model.url]
      const bin = startBin([...args, '--mode', 'full-access'], home)
      await initialize(bin)
      const env = [
        { name: 'MCP_TEST_LOG', value: log },
        { name: 'MCP_TEST_FORK', value: '1' },
      ]
      const server = { name: 'notes', command: process.execPath, args: [MCP_SERVER], env }
      const opened = await bin.request('session/new', { cwd: workspace, mcpServers: [server] })
      const { sessionId } = opened.result as { sessionId: string }
      bin.send('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] })
      const logged = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n')
      await vi.waitFor(async () => expect(await logged()).toContain('slow started'), {
        timeout: 20_000,
        interval: 50,
      })
      const pids = (await logged())
        .filter((line) => /^(pid|grandchild) \d+$/.test(line))
        .map((line) => Number(line.split(' ')[1]))
      expect(pids).toHaveLength(2)
      const start = performance.now()
      bin.child.stdin.end()
      await gone(bin.pid, start)
      await vi.waitFor(() => expect(pids.filter(isRunning)).toEqual([]), { timeout: GONE_MS })
      assertAgentFramesValid(bin.recorder.frames)
    } finally {
      await model.close()
    }
  }, 60_000)
})

describe('a session log the store did not write', () => {
  it('a line of an unknown event type is refused as an unreadable session', async () => {
    const home = await tempDir('home')
    const workspace = await tempDir('work')
    const store = join(home, 'sessions')
    const now = new Date().toISOString()
    const header = { id: 'odd', cwd: workspace, roots: [workspace], createdAt: now, updatedAt: now }
    const writer = new FileSessionStore({ dir: store }).create(header)
    writer.append({ type: 'turn/start', turnId: 't1' })
    // A line as a newer dsh (or a hand edit) might leave it.
    writer.append({ type: 'tool/progress', turnId: 't1' } as never)
    writer.close()
    const bin = startBin([...QUIET_MODEL, '--sessions', store], home)
    await initialize(bin)
    const loaded = await bin.request('session/load', {
      sessionId: 'odd',
      cwd: workspace,
      mcpServers: [],
    })
    expect(loaded.error?.message).toContain('is not one this store wrote')
    expect(loaded.error?.message).toContain('event type "tool/progress"')
    expect(loaded.error?.message).not.toContain('iterable')
    bin.child.stdin.end()
    await gone(bin.pid, performance.now())
    assertAgentFramesValid(bin.recorder.frames)
  }, 60_000)
})
