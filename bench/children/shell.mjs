// Child: a trivial command (`true`) through the bash tool against a bare child_process.spawn of
// the same `bash -c true`, in one process, call by call in turn. Ours: ctx.tools.execute on the
// app's stack with the shell tools (the session in full-access: the permission layer steps
// aside), the registry held as the agent host holds it. Also the floor: the same bare spawn
// with `detached` (a process group of its own, as ours must have). Args: { calls, rounds }.
// Reports the median ms per call of each over the rounds.
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { tempDir } from '../lib/data.mjs'
import { childArgs, report } from '../lib/measure.mjs'
import { shellAgent, loadShellStack } from '../lib/shell-stack.mjs'
import { callTool } from '../lib/stack.mjs'
import { median } from '../lib/stats.mjs'

const { calls, rounds } = childArgs()
const temp = tempDir('shell')
const ctx = await loadShellStack({ cwd: temp.dir, outputDir: `${temp.dir}/.output` })
const args = { name: 'bash', arguments: { command: 'true' }, agent: shellAgent(temp.dir) }
await callTool(ctx, args)

function bare(detached = false) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'true'], {
      cwd: temp.dir,
      detached,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.resume()
    child.stderr.resume()
    child.on('error', reject)
    child.on('close', resolve)
  })
}

const ours = []
const baseline = []
const floor = []
for (let r = 0; r < rounds; r++) {
  const mine = []
  const theirs = []
  const grouped = []
  for (let i = 0; i < calls; i++) {
    let start = performance.now()
    await callTool(ctx, args)
    mine.push(performance.now() - start)
    start = performance.now()
    await bare()
    theirs.push(performance.now() - start)
    start = performance.now()
    await bare(true)
    grouped.push(performance.now() - start)
  }
  ours.push(median(mine))
  baseline.push(median(theirs))
  floor.push(median(grouped))
}
temp.remove()
report({ ours: median(ours), baseline: median(baseline), floor: median(floor) })
process.exit(0)
