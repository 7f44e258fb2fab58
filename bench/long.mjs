// Benchmarks of long sessions against the bench's model server on 127.0.0.1 (children/long.mjs):
// - a 200-turn session (quick: 60) of reads and answers on a 64K-token window: the time spent
//   compacting per turn against the time of a whole turn, and the prompt-prefix stability (the
//   share of requests that keep the previous request whole as their prefix; target ≥ 90%,
//   with no request over the window);
// - 8 greps over the workspace (8 files of 2,000 lines) in one response (run side by side)
//   against the same 8 greps one response after another; the baseline's 7 extra model round
//   trips (to a local server) are in it.
import { alternate, runChild } from './lib/child.mjs'
import { median, ms, ratio } from './lib/stats.mjs'

export async function run({ runs, quick }) {
  const turns = quick ? 60 : 200
  const window = 65_536
  const sessions = []
  for (let i = 0; i < Math.min(runs, 3); i++)
    sessions.push(runChild('long.mjs', { mode: 'session', turns, window }))
  const perTurn = median(sessions.map((r) => r.ms / r.turns))
  const compactPerTurn = median(sessions.map((r) => r.compactionMs / r.turns))
  const last = sessions.at(-1)
  const stability = last.kept / Math.max(1, last.requests - 1)
  const inside = sessions.every((r) => r.refused === 0 && r.maxTokens <= r.window)
  console.log(
    `  ${turns} turns, ${last.requests} requests, ${last.compactions} compactions (${last.summaries} summaries): ` +
      `compacting ${ms(compactPerTurn)} a turn of ${ms(perTurn)}; prefix kept by ${(stability * 100).toFixed(1)}% of requests; ` +
      `largest request ${last.maxTokens} of ${last.window} tokens, ${last.refused} refused; ` +
      `${((100 * last.cachedTokens) / last.promptTokens).toFixed(1)}% of prompt tokens from the server's cache, ` +
      `${(last.summaryTokens / last.turns).toFixed(0)} summary tokens a turn`,
  )
  const greps = alternate(
    runs,
    () => runChild('long.mjs', { mode: 'greps', together: true }),
    () => runChild('long.mjs', { mode: 'greps', together: false }),
  )
  const together = median(greps.ours.map((r) => r.ms))
  const apart = median(greps.baseline.map((r) => r.ms))
  console.log(
    `  8 greps over 8 files of 2,000 lines: one response ${ms(together)}, one after another ${ms(apart)}, ${ratio(together, apart)}`,
  )
  return [
    {
      name: `long session, ${turns} turns: compaction per turn`,
      ours: compactPerTurn,
      baseline: perTurn,
      baselineName: 'a whole turn',
      memory: `${(stability * 100).toFixed(1)}% prefix kept`,
      target: '≥ 90% prefix kept, none over the window',
      met: stability >= 0.9 && inside,
    },
    {
      name: '8 greps in one response',
      ours: together,
      baseline: apart,
      baselineName: 'one after another',
      memory: '',
      target: '≤ 0.6×',
      met: together <= 0.6 * apart,
    },
  ]
}
