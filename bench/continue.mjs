// Benchmark paging: in one child, an untimed read of a window in the middle of the big file,
// then the timed read of the next window at the offset its footer gives (`offset=B+1`), which
// the per-version line index should serve without another pass; against `sed -n 'S,Ep;Eq'`
// printing the same lines. Target (SPEC §13): tens of milliseconds at 1 GiB (here: < 100 ms).
import { alternate, runChild, timeCommand } from './lib/child.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

export async function run({ runs, fixtures }) {
  const file = fixtures.bigText()
  const offset = Math.floor(file.lines / 2)
  const probe = runChild('read.mjs', { file: file.path, offset, limit: 2000, page: true })
  const { startLine, endLine } = probe.window
  const script = `${startLine},${endLine}p;${endLine}q`
  const results = alternate(
    runs,
    () => runChild('read.mjs', { file: file.path, offset, limit: 2000, page: true }),
    () => timeCommand('sed', ['-n', script, file.path]),
  )
  const ours = median(results.ours.map((r) => r.ms))
  const baseline = median(results.baseline.map((r) => r.ms))
  const added = max(results.ours.map((r) => r.rssAfter - r.rssBefore))
  console.log(
    `  first window at ${offset}, next at ${startLine}-${endLine}: read ${ms(ours)}, ` +
      `sed -n '${script}' ${ms(baseline)}, ${ratio(ours, baseline)}, peak +${mib(added)}`,
  )
  return [
    {
      name: 'read continue',
      ours,
      baseline,
      baselineName: 'sed -n',
      memory: `+${mib(added)}`,
      target: '< 100 ms',
      met: ours < 100,
    },
  ]
}
