// Benchmark the command sandbox: a trivial command (`true`) through SandboxShell (the BUILT
// package) confined to a workspace — `bwrap` with the roots bound, no network — against the same
// command through the same provider unconfined (`bash -c true` in its own process group), call
// by call in turn, in one process. Target: the sandbox adds ≤ 30 ms per command.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { median } from './lib/stats.mjs'

const packages = new URL('../packages/', import.meta.url)

async function loadShell() {
  const require = createRequire(new URL('shell-sandbox/package.json', packages))
  const { Context } = await import(pathToFileURL(require.resolve('cordis')).href)
  const { default: SandboxShell } = await import(
    new URL('shell-sandbox/dist/index.js', packages).href
  )
  const ctx = new Context()
  const fiber = await ctx.plugin(SandboxShell, {})
  return { shell: ctx.shell, dispose: () => fiber.dispose() }
}

async function timed(shell, options) {
  const start = process.hrtime.bigint()
  const exit = await shell.run(options)
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6
  if (exit.exitCode !== 0) throw new Error(`true exited ${exit.exitCode} (${exit.signal})`)
  return elapsed
}

export async function run({ quick, runs }) {
  const calls = (quick ? 20 : 100) * Math.max(1, Math.ceil(runs / 3))
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bench-sandbox-')))
  const { shell, dispose } = await loadShell()
  try {
    if (shell.unavailable !== undefined) throw new Error(`no sandbox here: ${shell.unavailable}`)
    const confine = { writable: [cwd], network: false }
    const plain = { command: 'true', cwd }
    for (let i = 0; i < 5; i++) {
      await timed(shell, { ...plain, confine })
      await timed(shell, plain)
    }
    const ours = []
    const baseline = []
    for (let i = 0; i < calls; i++) {
      ours.push(await timed(shell, { ...plain, confine }))
      baseline.push(await timed(shell, plain))
    }
    const sandboxed = median(ours)
    const unconfined = median(baseline)
    const added = sandboxed - unconfined
    console.log(
      `  true, ${calls} calls each: sandboxed ${sandboxed.toFixed(1)} ms, unconfined ` +
        `${unconfined.toFixed(1)} ms, the sandbox adds ${added.toFixed(1)} ms (medians per call)`,
    )
    return [
      {
        name: 'command in the sandbox',
        ours: sandboxed,
        baseline: unconfined,
        baselineName: 'the same command unconfined',
        memory: '',
        target: '≤ +30 ms',
        met: added <= 30,
      },
    ]
  } finally {
    await dispose()
    rmSync(cwd, { recursive: true, force: true })
  }
}
