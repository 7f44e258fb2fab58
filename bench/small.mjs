// Benchmark the everyday read: a 200-line file read through ctx.tools.execute (the app's file
// stack with the policy and the permission layer in the hot path), against the bare Node
// sequence that does the same work (realpath, stat, readFile, numbering the lines), side by
// side in one process, alternating. Target: ≤ 1.3×.
import { runChild } from './lib/child.mjs'
import { median, ratio } from './lib/stats.mjs'

const us = (msPerCall) => `${(msPerCall * 1000).toFixed(0)} µs`

export async function run({ runs, quick }) {
  const calls = quick ? 200 : 1000
  const results = Array.from({ length: Math.max(1, Math.ceil(runs / 3)) }, () =>
    runChild('small.mjs', { calls, rounds: Math.max(5, runs) }),
  )
  const ours = median(results.map((r) => r.ours))
  const baseline = median(results.map((r) => r.baseline))
  const lookup = median(results.map((r) => r.lookup))
  console.log(
    `  read of 200 lines: ours ${us(ours)}, bare Node ${us(baseline)}, ${ratio(ours, baseline)}` +
      ` (medians per call; a lookup of ctx.tools through Cordis would add ${us(lookup)})`,
  )
  return [
    {
      name: 'small read, 200 lines',
      ours,
      baseline,
      baselineName: 'realpath+stat+readFile+number',
      memory: '',
      target: '≤ 1.3×',
      met: ours <= 1.3 * baseline,
    },
  ]
}
