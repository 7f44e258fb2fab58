// Benchmark a big write as an editor sees it: one `write` of 1, 30 and 100 MiB (quick: 1 and
// 16 MiB) creating a file through the `dsh-acp` bin over real stdio, in `auto-edit`. Two
// spans: from the call (the agent logs it: its line lands in the session log) to its card
// (the `tool_call` frame on stdout), target ≤ 50 ms; and from the rename (the file appears in
// the workspace) to the `completed` update, reported. The baseline is the same 1 KiB write.
// Also printed: the bytes of all the card's frames (at most 1 MiB wanted) and whether the card
// came before the rename in every run.
import { alternate, runChild } from './lib/child.mjs'
import { max, median, ms } from './lib/stats.mjs'

const TINY = 1024

export async function run({ runs, quick }) {
  const sizes = quick ? [1, 16] : [1, 30, 100]
  const rows = []
  for (const mib of sizes) {
    const bytes = mib * 2 ** 20
    const results = alternate(
      runs,
      () => runChild('big-write.mjs', { bytes }),
      () => runChild('big-write.mjs', { bytes: TINY }),
    )
    const of = (list, key) => median(list.map((r) => r[key]))
    const card = of(results.ours, 'callToCard')
    const done = of(results.ours, 'renameToDone')
    const cardKiB = max(results.ours.map((r) => r.cardBytes)) / 1024
    const first = results.ours.every((r) => r.frameOrder === 'card first')
    console.log(
      `  ${mib} MiB: call → card ${ms(card)} (1 KiB: ${ms(of(results.baseline, 'callToCard'))}), ` +
        `rename → completed ${ms(done)} (1 KiB: ${ms(of(results.baseline, 'renameToDone'))}); ` +
        `card frames ${cardKiB.toFixed(0)} KiB; card before the rename: ${first ? 'every run' : 'NOT every run'}`,
    )
    const memory = `card ${cardKiB.toFixed(0)} KiB`
    rows.push(
      {
        name: `big write ${mib} MiB: call → card`,
        ours: card,
        baseline: of(results.baseline, 'callToCard'),
        baselineName: 'the same, 1 KiB',
        memory,
        target: '≤ 50 ms',
        met: card <= 50 && first && cardKiB <= 1024,
      },
      {
        name: `big write ${mib} MiB: rename → completed`,
        ours: done,
        baseline: of(results.baseline, 'renameToDone'),
        baselineName: 'the same, 1 KiB',
        memory,
        target: 'none (reported)',
        met: undefined,
      },
    )
  }
  return rows
}
