// Benchmark the start a person waits for when they open a new thread and send a first prompt:
// spawn the built `dsh-acp` (dist/bin.cjs, what `npm install -g` links) with an instant scripted
// model (`--script`, one turn of text, no delay), send `initialize` and `session/new` at once,
// then a prompt as soon as the session is open, and time from the spawn to
// - the `session/new` response (printed beside),
// - the first `agent_message_chunk` of the prompt (the first thing the person reads),
// - the prompt's answer (`end_turn`),
// reading the process's resident memory (VmRSS) and its peak (VmHWM) and CPU at the answer from
// /proc (Linux). In turn with `node -e 0` spawned the same way and timed to its exit (the floor
// of any Node agent). Twice `--runs` spawns of each (10 by default, quick 6), after one untimed spawn of each
// (the file cache warm, the code cache written).
// Targets: the first chunk ≤ 3× `node -e 0`, ≤ 60 MiB resident at its peak.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { median, mib, ms } from './lib/stats.mjs'

const BIN = fileURLToPath(new URL('../packages/acp-agent/dist/bin.cjs', import.meta.url))
const TARGET_RATIO = 3
const TARGET_RSS = 60 * 2 ** 20
/** Linux's clock ticks per second for /proc/<pid>/stat times. */
const TICKS = 100
/** The scripted model's one turn: streamed in 8-character pieces, the first is the chunk timed. */
const SCRIPT = { turns: [{ text: 'Hello from the scripted model.' }] }

export async function run(options = {}) {
  const spawns = 2 * (options.runs ?? 5)
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-start-'))
  try {
    const script = join(dir, 'script.json')
    writeFileSync(script, JSON.stringify(SCRIPT))
    await startAgent(dir, script)
    await startNode()
    const runs = []
    const node = []
    for (let i = 0; i < spawns; i++) {
      runs.push(await startAgent(dir, script))
      node.push(await startNode())
    }
    const of = (key) => median(runs.map((r) => r[key]))
    const floor = median(node)
    const chunk = of('chunkMs')
    const peak = of('peak')
    console.log(
      `  spawn → session/new response ${ms(of('openMs'))}, → first agent_message_chunk ` +
        `${ms(chunk)}, → the prompt's answer ${ms(of('answerMs'))}; node -e 0 ${ms(floor)}; ` +
        `at the answer: resident ${mib(of('rss'))}, peak ${mib(peak)}, CPU ${ms(of('cpuMs'))} ` +
        `(medians of ${spawns})`,
    )
    return [
      {
        name: 'start: spawn → first agent_message_chunk (instant scripted model)',
        ours: chunk,
        baseline: floor,
        baselineName: 'node -e 0 to exit',
        memory: `${mib(peak)} peak resident`,
        target: `≤ ${TARGET_RATIO}×, ≤ ${mib(TARGET_RSS)}`,
        met: chunk <= TARGET_RATIO * floor && peak <= TARGET_RSS,
      },
      {
        name: "start: spawn → the prompt's answer",
        ours: of('answerMs'),
        baseline: floor,
        baselineName: 'node -e 0 to exit',
        memory: `${mib(of('rss'))} resident`,
        target: '',
        met: undefined,
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function benchEnv() {
  const env = { ...process.env }
  for (const key of ['DSH_API_KEY', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY']) delete env[key]
  return env
}

/** One start, timed from the spawn: `openMs`, `chunkMs`, `answerMs`; `/proc` figures at the answer. */
function startAgent(dir, script) {
  const start = performance.now()
  const args = [BIN, '--script', script, '--sessions', join(dir, 'sessions')]
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: benchEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let text = ''
    let stderr = ''
    const result = {}
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const send = (message) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
    const take = (message) => {
      if (message.id === 2) {
        result.openMs = performance.now() - start
        const prompt = [{ type: 'text', text: 'hello' }]
        const params = { sessionId: message.result.sessionId, prompt }
        send({ id: 3, method: 'session/prompt', params })
      } else if (
        result.chunkMs === undefined &&
        message.params?.update?.sessionUpdate === 'agent_message_chunk'
      ) {
        result.chunkMs = performance.now() - start
      } else if (message.id === 3) {
        result.answerMs = performance.now() - start
        result.stopReason = message.result?.stopReason
        Object.assign(result, usageOf(child.pid))
        child.stdin.end()
      }
    }
    child.stdout.on('data', (chunk) => {
      text += chunk
      const lines = text.split('\n')
      text = lines.pop()
      for (const line of lines) take(JSON.parse(line))
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (result.stopReason === 'end_turn' && result.chunkMs !== undefined && code === 0) {
        resolve(result)
      } else {
        reject(new Error(`dsh-acp exited ${code} before its prompt's answer:\n${stderr}`))
      }
    })
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })
    send({ id: 2, method: 'session/new', params: { cwd: dir, mcpServers: [] } })
  })
}

/** Resident and peak resident bytes and CPU ms (user + system) of a live process; NaN off Linux. */
function usageOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kib = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    return { rss: kib('VmRSS'), peak: kib('VmHWM'), cpuMs: (ticks * 1000) / TICKS }
  } catch {
    return { rss: NaN, peak: NaN, cpuMs: NaN } // not Linux, or the process is gone
  }
}

/** One `node -e 0`, spawned as the bin is, timed to its exit. */
function startNode() {
  const start = performance.now()
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', () => resolve(performance.now() - start))
  })
}
