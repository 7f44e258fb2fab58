// Benchmark the cold start an editor waits for when a person opens a new thread: spawn the
// built `dsh-acp` (dist/bin.js, what `npm install -g` links), send `initialize` and
// `session/new` at once, time from the spawn to the `session/new` response and read the
// process's resident memory and CPU at that moment (from /proc, Linux); then send a prompt and
// time its response too: the stack loaded and serving (the default model without a key answers
// at once with how to configure one). Two kinds of start, in turn with `node -e 0` spawned the
// same way and timed to its exit (the floor of any Node agent):
// - kept: the answers of the last start with the same setup are kept, and the start's front
//   answers the opening while the stack loads (what every start but a setup's first is);
// - first: no answers kept (the file removed before it), so the stack answers (a setup's first
//   start, or any start of a client the front does not know).
// 10 spawns of each, after one untimed spawn of each (the file cache warm, the caches written).
// Targets: the kept start ≤ 1.5× `node -e 0` to the response, ≤ 60 MiB resident after it.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { median, mib, ms, ratio } from './lib/stats.mjs'

const DIST = fileURLToPath(new URL('../packages/acp-agent/dist/', import.meta.url))
const BIN = join(DIST, 'bin.js')
const ANSWERS = join(DIST, 'dsh-acp.cjs.answers.json')
const SPAWNS = 10
const TARGET_RATIO = 1.5
const TARGET_RSS = 60 * 2 ** 20
/** Linux's clock ticks per second for /proc/<pid>/stat times. */
const TICKS = 100

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-start-'))
  try {
    const first = () => {
      rmSync(ANSWERS, { force: true })
      return startAgent(dir)
    }
    const kept = () => startAgent(dir)
    await first()
    await kept()
    await startNode()
    const runs = { kept: [], first: [] }
    const node = []
    for (let i = 0; i < SPAWNS; i++) {
      runs.first.push(await first())
      runs.kept.push(await kept())
      node.push(await startNode())
    }
    const baseline = median(node)
    const rows = []
    for (const [kind, name] of [
      ['kept', 'the front answering from the kept answers'],
      ['first', 'no answers kept, the stack answering'],
    ]) {
      const ours = median(runs[kind].map((r) => r.ms))
      const ready = median(runs[kind].map((r) => r.readyMs))
      const rss = median(runs[kind].map((r) => r.rss))
      const cpu = median(runs[kind].map((r) => r.cpuMs))
      const answered = runs[kind].filter((r) => r.front).length
      console.log(
        `  spawn → session/new response, ${name}: ${ms(ours)} (its CPU ${ms(cpu)}), ` +
          `node -e 0 ${ms(baseline)}, ${ratio(ours, baseline)}; resident after it ${mib(rss)}; ` +
          `the first prompt answered at ${ms(ready)}; answered before the stack loaded in ` +
          `${answered} of ${SPAWNS} (medians of ${SPAWNS})`,
      )
      rows.push({
        name: `cold start, ${name}`,
        ours,
        baseline,
        baselineName: 'node -e 0 to exit',
        memory: `${mib(rss)} resident`,
        target: kind === 'kept' ? `≤ ${TARGET_RATIO}×, ≤ ${mib(TARGET_RSS)}` : '',
        met: kind === 'kept' ? ours <= TARGET_RATIO * baseline && rss <= TARGET_RSS : undefined,
      })
      rows.push({
        name: `cold start to the first prompt's response, ${name}`,
        ours: ready,
        baseline,
        baselineName: 'node -e 0 to exit',
        memory: '',
        target: '',
        met: undefined,
      })
    }
    return rows
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function benchEnv() {
  const env = { ...process.env }
  for (const key of ['DSH_API_KEY', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY']) delete env[key]
  return env
}

/**
 * One start: `{ ms, rss, cpuMs }` at the session/new response, `readyMs` at the prompt's,
 * `front`: the response came before the stack's first line on stderr (it loaded after).
 */
function startAgent(dir) {
  const start = performance.now()
  const child = spawn(process.execPath, [BIN, '--sessions', join(dir, 'sessions')], {
    cwd: dir,
    env: benchEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let text = ''
    let stderr = ''
    let result
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const send = (message) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
    child.stdout.on('data', (chunk) => {
      text += chunk
      const lines = text.split('\n')
      text = lines.pop()
      for (const line of lines) {
        const message = JSON.parse(line)
        if (message.id === 2) {
          result = { ms: performance.now() - start, front: stderr === '', ...usageOf(child.pid) }
          const prompt = [{ type: 'text', text: 'hello' }]
          send({
            id: 3,
            method: 'session/prompt',
            params: { sessionId: message.result.sessionId, prompt },
          })
        } else if (message.id === 3) {
          result.readyMs = performance.now() - start
          child.stdin.end()
        }
      }
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (result?.readyMs !== undefined && code === 0) resolve(result)
      else reject(new Error(`dsh-acp exited ${code} before answering its prompt:\n${stderr}`))
    })
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })
    send({ id: 2, method: 'session/new', params: { cwd: dir, mcpServers: [] } })
  })
}

/** Resident bytes and CPU ms (user + system) of a live process, from /proc; NaN elsewhere. */
function usageOf(pid) {
  try {
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    return { rss: Number(rss?.[1]) * 1024, cpuMs: (ticks * 1000) / TICKS }
  } catch {
    return { rss: NaN, cpuMs: NaN } // not Linux, or the process is gone
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
