// Benchmark the cold start an editor waits for when a person opens a new thread: spawn the
// built `dsh-acp` command, send `initialize` and `session/new` at once, time from the spawn to
// the `session/new` response, and read its resident memory and CPU at that moment (from /proc,
// Linux). The command as installed (dist/dsh-acp, the launcher) starts from its startup snapshot,
// made first with `--make-snapshot` as its first start would make it; the plain start (node
// dist/bin.js: the bundle from its code cache) is timed beside it. Against `node -e 0` spawned
// the same way and timed to its exit: the floor of any Node agent. 10 spawns of each, in turn,
// after one untimed spawn of each (the operating system's file cache warm, the caches written).
// Targets: ≤ 1.5× `node -e 0` to the response, ≤ 60 MiB resident after it.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { median, mib, ms, ratio } from './lib/stats.mjs'

const DIST = fileURLToPath(new URL('../packages/acp-agent/dist/', import.meta.url))
const COMMAND = join(DIST, 'dsh-acp')
const BIN = join(DIST, 'bin.js')
const SPAWNS = 10
const TARGET_RATIO = 1.5
const TARGET_RSS = 60 * 2 ** 20
/** Linux's clock ticks per second for /proc/<pid>/stat times. */
const TICKS = 100

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-start-'))
  try {
    execFileSync(COMMAND, ['--make-snapshot'], { stdio: 'ignore', env: benchEnv() })
    const starts = {
      command: () => startAgent(COMMAND, [], dir),
      plain: () => startAgent(process.execPath, [BIN], dir),
    }
    await starts.command()
    await starts.plain()
    await startNode()
    const command = []
    const plain = []
    const node = []
    for (let i = 0; i < SPAWNS; i++) {
      command.push(await starts.command())
      plain.push(await starts.plain())
      node.push(await startNode())
    }
    const baseline = median(node)
    const rows = []
    for (const [name, runs] of [
      ['the command, from its startup snapshot', command],
      ['the plain start (node dist/bin.js, code cache)', plain],
    ]) {
      const ours = median(runs.map((r) => r.ms))
      const rss = median(runs.map((r) => r.rss))
      const cpu = median(runs.map((r) => r.cpuMs))
      console.log(
        `  spawn → session/new response, ${name}: ${ms(ours)} (its CPU ${ms(cpu)}), ` +
          `node -e 0 ${ms(baseline)}, ${ratio(ours, baseline)}; resident after it ${mib(rss)} ` +
          `(medians of ${SPAWNS})`,
      )
      rows.push({
        name: `cold start, ${name}`,
        ours,
        baseline,
        baselineName: 'node -e 0 to exit',
        memory: `${mib(rss)} resident`,
        target: `≤ ${TARGET_RATIO}×, ≤ ${mib(TARGET_RSS)}`,
        met: ours <= TARGET_RATIO * baseline && rss <= TARGET_RSS,
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

/** One start of `command args`: `{ ms, rss, cpuMs }` at the session/new response. */
function startAgent(command, args, dir) {
  const start = performance.now()
  const child = spawn(command, [...args, '--sessions', join(dir, 'sessions')], {
    cwd: dir,
    env: benchEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
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
      else reject(new Error(`${command} exited ${code} before answering session/new:\n${stderr}`))
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
