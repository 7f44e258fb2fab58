// Benchmarks of delegated tasks against the bench's model server on 127.0.0.1
// (children/tasks.mjs), which answers every delegate request 200 ms late (a delegate: a read,
// then its report, so about 400 ms of model time per task):
// - two explorer tasks in one response (they run side by side) against one explorer task
//   alone: target ≤ 1.2×;
// - two general tasks in one response (side by side too, at most four at once) against one
//   general task alone: target ≤ 1.2×;
// - two explorer tasks in two responses, one after another, printed beside.
import { alternate, runChild } from './lib/child.mjs'
import { median, ms, ratio } from './lib/stats.mjs'

const DELAY_MS = 200

export async function run({ runs }) {
  const timed = (shape) => () => runChild('tasks.mjs', { shape, delayMs: DELAY_MS }).ms
  const explorers = alternate(runs, timed('together'), timed('alone'))
  const general = alternate(runs, timed('general'), timed('general-alone'))
  const apart = median(Array.from({ length: runs }, timed('apart')))
  const together = median(explorers.ours)
  const alone = median(explorers.baseline)
  const generalTogether = median(general.ours)
  const generalAlone = median(general.baseline)
  console.log(
    `  delegate answers ${DELAY_MS} ms late: two explorer tasks in one response ${ms(together)}, ` +
      `one alone ${ms(alone)} (${ratio(together, alone)}); two general tasks in one response ` +
      `${ms(generalTogether)}, one alone ${ms(generalAlone)} ` +
      `(${ratio(generalTogether, generalAlone)}); two explorer tasks in two responses ${ms(apart)}`,
  )
  return [
    {
      name: 'two explorer tasks in one response',
      ours: together,
      baseline: alone,
      baselineName: 'one explorer task alone',
      memory: '',
      target: '≤ 1.2×',
      met: together <= 1.2 * alone,
    },
    {
      name: 'two general tasks in one response',
      ours: generalTogether,
      baseline: generalAlone,
      baselineName: 'one general task alone',
      memory: '',
      target: '≤ 1.2×',
      met: generalTogether <= 1.2 * generalAlone,
    },
    {
      name: 'two explorer tasks in two responses',
      ours: apart,
      baseline: alone,
      baselineName: 'one explorer task alone',
      memory: '',
      target: '',
    },
  ]
}
