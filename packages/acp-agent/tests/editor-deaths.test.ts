// Fifty editor deaths at random (seeded) moments of a streaming turn, over the BUILT bin: the
// model streams its answer slowly and then runs a long command, and the editor dies somewhere
// in it, by having its process SIGKILLed (a relay process stands for it) or by closing every
// pipe. Three seconds after each death no agent process is alive (read from /proc, polled) and
// nothing runs in the workspace; the next agent loads the session at once and goes on with it.
// Two sessions die twenty-five times each, side by side, to keep the run short on a busy machine; one
// agent starts at a time, so the deaths are timed against agents at work, not a start storm.
// DSH_DEATH_SEED replays a run's moments.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { seededRandom } from '@deepseek-ai/dsh-fs/testing'
import { ensureBuilt } from './helpers/build'
import { RawBin, isRunning, processesIn } from './helpers/raw-bin'
import { startStreamingModel } from './helpers/streaming-model'
import type { StreamingModel } from './helpers/streaming-model'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-deaths')
const SESSIONS = 2
const DEATHS_EACH = 25
/** The latest moment of a death after the prompt, in ms: past the text, into the command. */
const LATEST_DEATH_MS = 2500
const GONE_MS = 3000

let model: StreamingModel
beforeAll(async () => {
  ensureBuilt()
  // About 1.5 s of text, then a command that would run a minute.
  const call = { name: 'bash', arguments: { command: 'sleep 60; echo never' } }
  model = await startStreamingModel({ pieces: 300, intervalMs: 5, call })
}, 420_000)
afterAll(() => model.close())

const alive: RawBin[] = []
afterAll(async () => {
  for (const bin of alive) bin.child.kill('SIGKILL')
})

function deathSeed(): number {
  const replay = process.env.DSH_DEATH_SEED
  return replay === undefined ? Math.floor(Math.random() * 2 ** 32) : Number(replay)
}

interface Death {
  session: number
  round: number
  afterMs: number
  how: 'editor SIGKILLed' | 'pipes closed'
  goneMs: number
}

/** Agents start one at a time: each start waits for the one before to have its session. */
let starting: Promise<unknown> = Promise.resolve()
function oneAtATime<T>(start: () => Promise<T>): Promise<T> {
  const started = starting.then(start)
  starting = started.catch(() => undefined)
  return started
}

/** One session dying `DEATHS_EACH` times; each agent after the first loads it. */
async function dieRepeatedly(
  session: number,
  random: () => number,
  store: string,
): Promise<Death[]> {
  const home = await tempDir('home')
  const workspace = await tempDir('work')
  const args = ['--sessions', store, '--base-url', model.url, '--mode', 'full-access']
  const deaths: Death[] = []
  let sessionId: string | undefined
  for (let round = 0; round < DEATHS_EACH; round++) {
    const relay = random() < 0.5
    const afterMs = Math.floor(random() * LATEST_DEATH_MS)
    const how = relay ? 'editor SIGKILLed' : 'pipes closed'
    const context = `session ${session}, round ${round} (${how} ${afterMs} ms after the prompt)`
    const bin = await oneAtATime(async () => {
      const started = new RawBin(args, home, { relay })
      alive.push(started)
      const init = await started.request('initialize', {
        protocolVersion: 1,
        clientCapabilities: {},
      })
      expect(init.error, context).toBeUndefined()
      if (sessionId === undefined) {
        const opened = await started.request('session/new', { cwd: workspace, mcpServers: [] })
        sessionId = (opened.result as { sessionId: string }).sessionId
      } else {
        const params = { sessionId, cwd: workspace, mcpServers: [] }
        const loaded = await started.request('session/load', params)
        expect(loaded.error, context).toBeUndefined()
      }
      return started
    })
    bin.send('session/prompt', { sessionId, prompt: [{ type: 'text', text: `round ${round}` }] })
    const agentPid = await bin.agentPid
    await new Promise((resolve) => setTimeout(resolve, afterMs)) // the random moment of death
    const diedAt = performance.now()
    if (relay) bin.child.kill('SIGKILL')
    else bin.die()
    await vi.waitFor(() => expect(isRunning(agentPid), context).toBe(false), {
      timeout: GONE_MS,
      interval: 20,
    })
    const goneMs = performance.now() - diedAt
    await vi.waitFor(() => expect(processesIn(workspace), context).toEqual([]), {
      timeout: Math.max(100, GONE_MS - goneMs),
      interval: 20,
    })
    assertAgentFramesValid(bin.recorder.frames)
    deaths.push({ session, round, afterMs, how, goneMs })
  }
  // The last death left the session loadable too.
  const last = new RawBin(args, home)
  alive.push(last)
  await last.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  const loaded = await last.request('session/load', { sessionId, cwd: workspace, mcpServers: [] })
  expect(loaded.error, `session ${session} after its last death`).toBeUndefined()
  last.child.stdin.end()
  expect(await last.exited).toBe(0)
  assertAgentFramesValid(last.recorder.frames)
  return deaths
}

describe('editor deaths mid-turn', () => {
  it('fifty deaths at random moments: no agent alive three seconds after, each session loads again', async () => {
    const seed = deathSeed()
    console.log(`editor deaths: seed ${seed} (DSH_DEATH_SEED=${seed} replays the moments)`)
    const random = seededRandom(seed)
    // Each session's moments drawn up front from the one seed, so a replay is the same run.
    const streams = Array.from({ length: SESSIONS }, () => {
      const draws = Array.from({ length: DEATHS_EACH * 2 }, () => random())
      return () => draws.shift() ?? 0
    })
    const store = join(await tempDir('store'), 'sessions')
    const started = performance.now()
    const deaths = (
      await Promise.all(streams.map((draw, session) => dieRepeatedly(session, draw, store)))
    ).flat()
    expect(deaths).toHaveLength(SESSIONS * DEATHS_EACH)
    const slowest = Math.max(...deaths.map((death) => death.goneMs))
    const killed = deaths.filter((death) => death.how === 'editor SIGKILLed').length
    console.log(
      `editor deaths: ${deaths.length} in ${Math.round((performance.now() - started) / 1000)} s ` +
        `(${killed} editors SIGKILLed, ${deaths.length - killed} pipes closed); ` +
        `the slowest agent was gone ${Math.round(slowest)} ms after its editor`,
    )
  }, 360_000)
})
