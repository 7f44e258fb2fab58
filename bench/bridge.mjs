// Benchmark the bridge: 1,000 small read calls (quick: 200) in one scripted ACP session
// through the real SDK client over in-memory streams, against the same calls through
// ctx.tools.execute. Each side runs in a fresh child; the calls alone are timed.
// Target (SPEC §13): within 1.5×.
import { alternate, runChild } from './lib/child.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

export async function run({ runs, quick }) {
  const calls = quick ? 200 : 1000
  const args = (mode) => ({ mode, calls, files: 10 })
  const results = alternate(
    runs,
    () => runChild('bridge.mjs', args('acp')),
    () => runChild('bridge.mjs', args('direct')),
  )
  const ours = median(results.ours.map((r) => r.ms))
  const baseline = median(results.baseline.map((r) => r.ms))
  const added = (list) => max(list.map((r) => r.rssAfter - r.rssBefore))
  console.log(
    `  ${calls} reads: ACP session ${ms(ours)} (${(ours / calls).toFixed(2)} ms/call), ` +
      `ctx.tools.execute ${ms(baseline)} (${(baseline / calls).toFixed(2)} ms/call), ` +
      `${ratio(ours, baseline)}; peak +${mib(added(results.ours))} ` +
      `(direct +${mib(added(results.baseline))})`,
  )
  return [
    {
      name: 'bridge',
      ours,
      baseline,
      baselineName: 'ctx.tools.execute',
      memory: `+${mib(added(results.ours))}`,
      target: '≤ 1.5×',
      met: ours <= 1.5 * baseline,
    },
  ]
}
