// Child: the first command of a session against its later ones, on the app's stack with the
// shell tools as the app mounts them by default (SandboxShell; the session in `ask`, so each
// command is classified, which needs the bash grammar, and runs in the read-only sandbox since
// it only reads). Each command is a different one (`ls f0`, `ls f1`, …: files in the
// workspace), so none reuses another's classification. With `warm`, what the app does when a
// session opens runs first (the `tools/warm-up` event: the session's roots; the grammar, the
// argument check, the shell's own warm-up, a sandbox's bwrap check among it, one call of the
// tool with nothing shown), and the first command comes 1 s
// later (a model's first answer with a tool call takes at least that); without, the first
// command does it all. The process runs under the app's V8 flags (its bin sets
// `--liftoff-only` before anything compiles: WebAssembly, the bash grammar among it, is never
// tiered up to TurboFan; without it, the optimising compiles of the grammar's hot functions
// take hundreds of ms of CPU on background threads over the first dozen commands, which the
// app never pays). Args: { later, warm }. Reports the first call's ms, the median of `later`
// more, and one more after a pause as long as the first's (`afterPause`).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { setFlagsFromString } from 'node:v8'
import { tempDir } from '../lib/data.mjs'
import { childArgs, report } from '../lib/measure.mjs'
import { shellAgent, loadShellStack } from '../lib/shell-stack.mjs'
import { callTool, registryOf } from '../lib/stack.mjs'
import { median } from '../lib/stats.mjs'

setFlagsFromString('--liftoff-only')
const { later, warm } = childArgs()
const temp = tempDir('shell-first')
for (let i = 0; i <= later + 1; i++) writeFileSync(join(temp.dir, `f${i}`), '')
const ctx = await loadShellStack({
  cwd: temp.dir,
  outputDir: `${temp.dir}/.output`,
  sandbox: true,
  checkNow: false,
})
// The registry taken as the agent host holds it, before anything is timed.
await registryOf(ctx)
const agent = shellAgent(temp.dir, 'ask')
const command = (i) => ({ name: 'bash', arguments: { command: `ls f${i}` }, agent })
if (warm) {
  // What the app's stack does once a session's answer is sent.
  ctx.emit('tools/warm-up', agent)
  await sleep(1000)
}
let start = performance.now()
await callTool(ctx, command(0))
const first = performance.now() - start
const times = []
for (let i = 1; i <= later; i++) {
  start = performance.now()
  await callTool(ctx, command(i))
  times.push(performance.now() - start)
}
// One more after the same pause as the first had: what a pause alone costs a command.
await sleep(1000)
start = performance.now()
await callTool(ctx, command(later + 1))
const afterPause = performance.now() - start
temp.remove()
if (ctx.shell.unavailable !== undefined)
  throw new Error(`no sandbox here: ${ctx.shell.unavailable}`)
report({ first, later: median(times), afterPause })
process.exit(0)
