// Benchmark the cold start an editor waits for when a person opens a new thread: spawn the
// built `dsh-acp` bin, send `initialize` and `session/new` at once, time from the spawn to the
// `session/new` response, and read the bin's resident memory and CPU at that moment (from
// /proc, Linux). Against `node -e 0` spawned the same way and timed to its exit: the floor of
// any Node agent. 10 spawns of each, alternately, after one untimed spawn of each (the
// operating system's file cache warm, the bin's code cache written, as after an install).
// Targets: ≤ 120 ms to the response, ≤ 50 MiB resident after it (here).
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { median, mib, ms, ratio } from './lib/stats.mjs'

const BIN = fileURLToPath(new URL('../packages/acp-agent/dist/bin.js', import.meta.url))
const SPAWNS = 10
const TARGET_MS = 120
const TARGET_RSS = 50 * 2 ** 20
/** Linux's clock ticks per second for /proc/<pid>/stat times. */
const TICKS = 100

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-start-'))
  try {
    await startBin(dir)
    await startNode()
    const bin = []
    const node = []
    for (let i = 0; i < SPAWNS; i++) {
      bin.push(await startBin(dir))
      node.push(await startNode())
    }
    const ours = median(bin.map((r) => r.ms))
    const baseline = median(node)
    const rss = median(bin.map((r) => r.rss))
    const cpu = median(bin.map((r) => r.cpuMs))
    console.log(
      `  spawn → session/new response: the bin ${ms(ours)} (its CPU ${ms(cpu)}), ` +
        `node -e 0 ${ms(baseline)}, ${ratio(ours, baseline)}; resident after it ${mib(rss)} ` +
        `(medians of ${SPAWNS})`,
    )
    return [
      {
        name: 'cold start: spawn → session/new response',
        ours,
        baseline,
        baselineName: 'node -e 0 to exit',
        memory: `${mib(rss)} resident`,
        target: `≤ ${TARGET_MS} ms, ≤ ${mib(TARGET_RSS)}`,
        met: ours <= TARGET_MS && rss <= TARGET_RSS,
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One start of the bin: `{ ms, rss, cpuMs }` at the session/new response. */
function startBin(dir) {
  const env = { ...process.env }
  delete env.DEEPSEEK_API_KEY
  const args = [BIN, '--sessions', join(dir, 'sessions')]
  const start = performance.now()
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let text = ''
    let stderr = ''
    let result
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdout.on('data', (chunk) => {
      text += chunk
      const lines = text.split('\n')
      text = lines.pop()
      for (const line of lines) {
        if (result !== undefined || JSON.parse(line).id !== 2) continue
        result = { ms: performance.now() - start, ...usageOf(child.pid) }
        child.stdin.end()
      }
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (result !== undefined && code === 0) resolve(result)
      else reject(new Error(`the bin exited ${code} before answering session/new:\n${stderr}`))
    })
    const send = (message) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
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
