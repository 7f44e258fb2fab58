// Child: the small read, ours against the bare Node sequence, in one process, alternating.
// Ours: `read` of a 200-line file through ctx.tools.execute on the app's file stack (fs-acp over
// the disk with no editor, FsPolicy, the permission layer in `ask` mode: the read inside the
// workspace is classified and allowed), for a session that has read the file once already,
// with the registry held as the agent host holds it (Cordis's lookup of ctx.tools is reported
// apart: `lookup`).
// Baseline: realpath + stat + readFile + numbering the lines, as bare as Node does it.
// Args: { calls, rounds }. Reports the median ms per call of each, over the rounds.
import { realpath, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { tempDir } from '../lib/data.mjs'
import { callTool, loadStack } from '../lib/stack.mjs'
import { childArgs, report } from '../lib/measure.mjs'
import { median } from '../lib/stats.mjs'

const { calls, rounds } = childArgs()
const temp = tempDir('small')
const file = join(temp.dir, 'small.ts')
const text = Array.from(
  { length: 200 },
  (_, i) => `const value${i} = compute(${i}) // line ${i + 1}`,
).join('\n')
await writeFile(file, `${text}\n`)
const ctx = await loadStack({ cwd: temp.dir, policy: true, app: true })
const agent = {
  session: { header: { id: 'small', cwd: temp.dir, roots: [temp.dir], mode: 'ask' } },
}
const args = { name: 'read', arguments: { file_path: 'small.ts' }, agent }
await callTool(ctx, args)

async function bare() {
  const real = await realpath(file)
  await stat(real, { bigint: true })
  const body = await readFile(real, 'utf8')
  const lines = body.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines.map((line, i) => `${i + 1}: ${line}`).join('\n')
}

/**
 * One round: `calls` of each, alternating call by call; the median ms per call of each (a
 * call the machine's scheduler delays is not the code's cost, and it hits either side).
 */
async function round() {
  const ours = []
  const baseline = []
  for (let i = 0; i < calls; i++) {
    let start = performance.now()
    await callTool(ctx, args)
    ours.push(performance.now() - start)
    start = performance.now()
    await bare()
    baseline.push(performance.now() - start)
  }
  return { ours: median(ours), baseline: median(baseline) }
}

/** Cordis's lookup of `ctx.tools` (a host that looks it up per call pays it each time), in ms. */
function lookupCost() {
  const start = performance.now()
  for (let i = 0; i < calls; i++) if (ctx.tools === undefined) throw new Error('no registry')
  return (performance.now() - start) / calls
}

for (let i = 0; i < 200; i++) {
  await callTool(ctx, args)
  await bare()
}
const results = []
for (let i = 0; i < rounds; i++) results.push(await round())
temp.remove()
report({
  ours: median(results.map((r) => r.ours)),
  baseline: median(results.map((r) => r.baseline)),
  lookup: lookupCost(),
})
