// Benchmark the command sandbox: a trivial command (`true`) through SandboxShell (the BUILT
// package) confined to a workspace — `bwrap` with the roots bound, no network, its own pid
// namespace — against the same command through the same provider unconfined (`bash -c true` in
// its own process group), call by call in turn, in one process; then the same through the bash
// tool on the app's stack (./children/shell-confined.mjs): `auto-edit` (the workspace sandbox)
// and `ask` (a read-only command, the read-only sandbox) against `full-access` (unconfined).
// Target: the sandbox adds ≤ 15 ms per command.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runChild } from './lib/child.mjs'
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
    const tool = Array.from({ length: Math.max(1, Math.ceil(runs / 3)) }, () =>
      runChild('shell-confined.mjs', { calls: quick ? 20 : 60 }),
    )
    const [edit, free, ask, freePwd] = ['auto-edit', 'full-access', 'ask', 'full-access pwd'].map(
      (mode) => median(tool.map((r) => r[mode])),
    )
    console.log(
      `  the bash tool: true in auto-edit (workspace sandbox) ${edit.toFixed(1)} ms, in ` +
        `full-access ${free.toFixed(1)} ms; pwd in ask (read-only sandbox) ${ask.toFixed(1)} ms, ` +
        `in full-access ${freePwd.toFixed(1)} ms`,
    )
    const row = (name, ours, baseline, baselineName) => ({
      name,
      ours,
      baseline,
      baselineName,
      memory: '',
      target: '≤ +15 ms',
      met: ours - baseline <= 15,
    })
    return [
      row('command in the sandbox', sandboxed, unconfined, 'the same command unconfined'),
      row('bash in auto-edit (sandbox)', edit, free, 'bash in full-access'),
      row('bash in ask, a read-only command', ask, freePwd, 'bash in full-access'),
    ]
  } finally {
    await dispose()
    rmSync(cwd, { recursive: true, force: true })
  }
}
