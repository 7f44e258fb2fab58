// Benchmarks of delegated tasks against the bench's model server on 127.0.0.1
// (children/tasks.mjs), which answers every delegate request 200 ms late (a delegate: a read,
// then its report, so about 400 ms of model time per task):
// - two explorer tasks in one response (they run side by side) against one task alone:
//   target ≤ 1.2×;
// - the same two tasks in two responses, one after another, printed beside;
// - two general tasks in one response: a general task runs alone (its delegate may change
//   files), so these run one after another; reported, no target.
import { alternate, runChild } from './lib/child.mjs'
import { median, ms, ratio } from './lib/stats.mjs'

const DELAY_MS = 200

export async function run({ runs }) {
  const timed = (shape) => () => runChild('tasks.mjs', { shape, delayMs: DELAY_MS }).ms
  const main = alternate(runs, timed('together'), timed('alone'))
  const more = alternate(runs, timed('apart'), timed('general'))
  const together = median(main.ours)
  const alone = median(main.baseline)
  const apart = median(more.ours)
  const general = median(more.baseline)
  console.log(
    `  delegate answers ${DELAY_MS} ms late: two explorer tasks in one response ${ms(together)}, ` +
      `one alone ${ms(alone)} (${ratio(together, alone)}), two in two responses ${ms(apart)}, ` +
      `two general tasks in one response ${ms(general)} (${ratio(general, alone)})`,
  )
  return [
    {
      name: 'two tasks in one response',
      ours: together,
      baseline: alone,
      baselineName: 'one task alone',
      memory: '',
      target: '≤ 1.2×',
      met: together <= 1.2 * alone,
    },
    {
      name: 'two tasks in two responses',
      ours: apart,
      baseline: alone,
      baselineName: 'one task alone',
      memory: '',
      target: '',
    },
    {
      name: 'two general tasks in one response',
      ours: general,
      baseline: alone,
      baselineName: 'one task alone',
      memory: '',
      target: '',
    },
  ]
}
