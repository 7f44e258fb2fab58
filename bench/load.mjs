// Benchmark loading a stored session: 1,000 events (quick: 200) loaded over a real ACP
// session in process (the acp-testing harness: session/load, the replay of every update before
// the response), against reading and parsing the same log line by line (the floor of any load);
// and 10,000 events (quick: 2,000) loaded over the `dsh-acp` bin's real stdio by the SDK's
// client, timed to the load response, with the CPU each side spent on it. Each run is a fresh
// child. Target: 10,000 events to the load response within a second (here).
import { alternate, runChild } from './lib/child.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

/** The long session a person reopens: ≤ 1 s to the load response. */
const LONG_EVENTS = 10_000
const LONG_TARGET_MS = 1000

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
    overTheBin(runs, quick ? LONG_EVENTS / 5 : LONG_EVENTS),
  ]
}

/** The long session over the bin's stdio, the SDK's client: the time to the load response. */
function overTheBin(runs, events) {
  const results = alternate(
    runs,
    () => runChild('load.mjs', { mode: 'bin', events, client: 'sdk' }),
    () => runChild('load.mjs', { mode: 'raw', events }),
  )
  const ours = median(results.ours.map((r) => r.ms))
  const baseline = median(results.baseline.map((r) => r.ms))
  const binCpu = median(results.ours.map((r) => r.binCpuMs))
  const clientCpu = median(results.ours.map((r) => r.clientCpuMs))
  console.log(
    `  ${events} events over the bin (SDK client): to the response ${ms(ours)} ` +
      `(the bin's CPU ${ms(binCpu)}, the client's ${ms(clientCpu)}), ` +
      `the log read and parsed ${ms(baseline)}`,
  )
  return {
    name: `session load over the bin, ${events} events, SDK client`,
    ours,
    baseline,
    baselineName: 'log read + JSON.parse',
    memory: '—',
    target: events === LONG_EVENTS ? `≤ ${LONG_TARGET_MS} ms` : 'none (quick size)',
    met: events === LONG_EVENTS ? ours <= LONG_TARGET_MS : undefined,
  }
}
