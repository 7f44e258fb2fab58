// Benchmark loading a stored session: 1,000 events (quick: 200) loaded over a real ACP
// session (session/load, the replay of every update before the response), against reading and
// parsing the same log line by line (the floor of any load). Each run is a fresh child.
// No target: the figure says what a person waits for when they reopen a long thread.
import { alternate, runChild } from './lib/child.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

export async function run({ runs, quick }) {
  const events = quick ? 200 : 1000
  const results = alternate(
    runs,
    () => runChild('load.mjs', { mode: 'acp', events }),
    () => runChild('load.mjs', { mode: 'raw', events }),
  )
  const ours = median(results.ours.map((r) => r.ms))
  const baseline = median(results.baseline.map((r) => r.ms))
  const added = max(results.ours.map((r) => r.rssAfter - r.rssBefore))
  console.log(
    `  ${events} events: session/load ${ms(ours)}, the log read and parsed ${ms(baseline)}, ` +
      `${ratio(ours, baseline)}, peak +${mib(added)}`,
  )
  return [
    {
      name: `session load, ${events} events`,
      ours,
      baseline,
      baselineName: 'log read + JSON.parse',
      memory: `+${mib(added)}`,
      target: 'none (reported)',
    },
  ]
}
