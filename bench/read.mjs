// Benchmark `read`: a 2000-line window at the start, middle and end of a big text file through
// the read tool (a fresh child per run, the call alone timed) against `wc -l` on the same file.
// Targets: within 2× of wc -l (SPEC §13), the end window (every newline counted) within 1.3×;
// the read adds at most 32 MiB to the peak RSS. The end row also shows the floor under it: the
// same bytes read from Node (bench/children/read-floor.mjs) and not looked at.
import { alternate, runChild, timeCommand } from './lib/child.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

const MEMORY_LIMIT = 32 * 2 ** 20

export async function run({ runs, fixtures }) {
  const file = fixtures.bigText()
  const positions = [
    ['start', 1],
    ['middle', Math.floor(file.lines / 2)],
    ['end', file.lines - 1999],
  ]
  const rows = []
  // The floor under the end window: the same bytes read from Node and not looked at.
  const floor = median(
    Array.from({ length: runs }, () => runChild('read-floor.mjs', { file: file.path }).ms),
  )
  for (const [label, offset] of positions) {
    const results = alternate(
      runs,
      () => runChild('read.mjs', { file: file.path, offset, limit: 2000 }),
      () => timeCommand('wc', ['-l', file.path]),
    )
    const ours = median(results.ours.map((r) => r.ms))
    const baseline = median(results.baseline.map((r) => r.ms))
    const added = max(results.ours.map((r) => r.rssAfter - r.rssBefore))
    const window = results.ours[0].window
    const shown = `lines ${window.startLine}-${window.endLine}${window.capped ? ' (50 KiB cap)' : ''}`
    const bytesRead = label === 'end' ? `; the bytes alone read from Node ${ms(floor)}` : ''
    console.log(
      `  ${label.padEnd(6)} offset ${offset}: read ${ms(ours)}, wc -l ${ms(baseline)}, ` +
        `${ratio(ours, baseline)}, peak +${mib(added)}; shows ${shown}${bytesRead}`,
    )
    // The end window counts every newline of the file: it has the tighter target.
    const most = label === 'end' ? 1.3 : 2
    rows.push({
      name: `read ${label}`,
      ours,
      baseline,
      baselineName: 'wc -l',
      memory: `+${mib(added)}`,
      target: `≤ ${most}×, ≤ +32 MiB`,
      met: ours <= most * baseline && added <= MEMORY_LIMIT,
    })
  }
  return rows
}
