// Benchmark the bridge: 1,000 small read calls (quick: 200) in one scripted ACP session
// through the real SDK client over in-memory streams, against the same calls through
// ctx.tools.execute. Each side runs in a fresh child; the calls alone are timed.
// Target (SPEC §13): within 1.5×. Also the permission layer's share of it: the session in the
// `ask` mode (every read classified) against `full-access` (the layer steps aside); ≤ 1.05×.
import { alternate, runChild } from './lib/child.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

export async function run({ runs, quick }) {
  const calls = quick ? 200 : 1000
  const args = (mode, permission) => ({ mode, calls, files: 10, permission })
  const results = alternate(
    runs,
    () => runChild('bridge.mjs', args('acp', 'ask')),
    () => runChild('bridge.mjs', args('direct')),
  )
  // The permission layer's share: the same session with every read classified (ask) against
  // the layer stepping aside (full-access).
  const unasked = alternate(
    runs,
    () => runChild('bridge.mjs', args('acp', 'ask')),
    () => runChild('bridge.mjs', args('acp', 'full-access')),
  )
  const ours = median(results.ours.map((r) => r.ms))
  const baseline = median(results.baseline.map((r) => r.ms))
  const gated = median(unasked.ours.map((r) => r.ms))
  const open = median(unasked.baseline.map((r) => r.ms))
  const added = (list) => max(list.map((r) => r.rssAfter - r.rssBefore))
  console.log(
    `  ${calls} reads: ACP session ${ms(ours)} (${(ours / calls).toFixed(2)} ms/call), ` +
      `ctx.tools.execute ${ms(baseline)} (${(baseline / calls).toFixed(2)} ms/call), ` +
      `${ratio(ours, baseline)}; peak +${mib(added(results.ours))} ` +
      `(direct +${mib(added(results.baseline))})`,
  )
  console.log(
    `  permission layer: ask mode ${ms(gated)}, full-access ${ms(open)}, ${ratio(gated, open)}`,
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
    {
      name: 'bridge, permission layer',
      ours: gated,
      baseline: open,
      baselineName: 'same session, full-access',
      memory: '',
      target: '≤ 1.05×',
      met: gated <= 1.05 * open,
    },
  ]
}
