// Child: a trivial command through the bash tool on the app's stack with SandboxShell, call by
// call in turn: `true` in `auto-edit` (the workspace sandbox) against `true` in `full-access`
// (unconfined), and `pwd` in `ask` (it only reads, so it runs unasked in the read-only sandbox)
// against `pwd` in `full-access`.
// Args: { calls }. Reports the median ms per call of each.
import { performance } from 'node:perf_hooks'
import { tempDir } from '../lib/data.mjs'
import { childArgs, report } from '../lib/measure.mjs'
import { shellAgent, loadShellStack } from '../lib/shell-stack.mjs'
import { callTool } from '../lib/stack.mjs'
import { median } from '../lib/stats.mjs'

const { calls } = childArgs()
const temp = tempDir('shell-confined')
const ctx = await loadShellStack({
  cwd: temp.dir,
  outputDir: `${temp.dir}/.output`,
  sandbox: true,
})
const cases = {
  'auto-edit': ['auto-edit', 'true'],
  'full-access': ['full-access', 'true'],
  ask: ['ask', 'pwd'],
  'full-access pwd': ['full-access', 'pwd'],
}
const modes = Object.keys(cases)
const times = Object.fromEntries(modes.map((mode) => [mode, []]))
const call = (name) =>
  callTool(ctx, {
    name: 'bash',
    arguments: { command: cases[name][1] },
    agent: shellAgent(temp.dir, cases[name][0]),
  })
for (const mode of modes) await call(mode)
for (let i = 0; i < calls; i++) {
  for (const mode of modes) {
    const start = performance.now()
    await call(mode)
    times[mode].push(performance.now() - start)
  }
}
temp.remove()
report(Object.fromEntries(modes.map((mode) => [mode, median(times[mode])])))
process.exit(0)
