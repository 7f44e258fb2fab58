// Benchmark the shell tool: a trivial command (`true`) through `bash` (full-access: unconfined)
// against a bare child_process.spawn of the same in a process group of its own, as ours must be
// (the fair floor; target ≤ 1.3×, medians per call; the spawn without a group is printed
// beside), the first command of a session against the later ones (./children/shell-first.mjs:
// the app's default sandbox, `ask`, a different read-only command each call, the first 1 s
// after the warm-up a session opening starts), and `seq 1 5000000` (quick 500000) through
// `bash` against the same spawned to /dev/null (target ≤ 2×, peak memory added ≤ 32 MiB). Each also prints its floor: the bare spawn in a process group of its
// own (as ours must be), and the flood piped into this process and dropped.
import { alternate, runChild } from './lib/child.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

const MIB = 2 ** 20

export async function run({ runs, quick }) {
  const trivial = Array.from({ length: Math.max(1, Math.ceil(runs / 3)) }, () =>
    runChild('shell.mjs', { calls: quick ? 20 : 50, rounds: Math.max(3, runs) }),
  )
  const oursTrivial = median(trivial.map((r) => r.ours))
  const baseTrivial = median(trivial.map((r) => r.baseline))
  const floorTrivial = median(trivial.map((r) => r.floor))
  console.log(
    `  true: bash tool ${ms(oursTrivial)}; the floor, a bare spawn with its own process group ` +
      `(detached): ${ms(floorTrivial)}, ${ratio(oursTrivial, floorTrivial)} (medians per call); ` +
      `a bare spawn without one ${ms(baseTrivial)}, ${ratio(oursTrivial, baseTrivial)}`,
  )
  const firsts = Array.from({ length: runs }, () =>
    runChild('shell-first.mjs', { later: quick ? 10 : 20, warm: true }),
  )
  const cold = runChild('shell-first.mjs', { later: 3, warm: false })
  const first = median(firsts.map((r) => r.first))
  const later = median(firsts.map((r) => r.later))
  const afterPause = median(firsts.map((r) => r.afterPause))
  console.log(
    `  the first command of a session (ask, the read-only sandbox, 1 s after the warm-up a ` +
      `session opening starts; each command a different one): ` +
      `${ms(first)}, the later ones ${ms(later)}, ${ratio(first, later)}; a later one after ` +
      `the same 1 s pause ${ms(afterPause)}, ${ratio(first, afterPause)}; ` +
      `without the warm-up the first took ${ms(cold.first)}`,
  )
  const count = quick ? 500_000 : 5_000_000
  const flood = alternate(
    runs,
    () => runChild('shell-flood.mjs', { count, side: 'ours' }),
    () => runChild('shell-flood.mjs', { count, side: 'baseline' }),
  )
  const oursFlood = median(flood.ours.map((r) => r.ms))
  const baseFlood = median(flood.baseline.map((r) => r.ms))
  const added = max(flood.ours.map((r) => r.rssAfter - r.rssBefore))
  const piped = median(
    Array.from({ length: runs }, () => runChild('shell-flood.mjs', { count, side: 'pipe' }).ms),
  )
  console.log(
    `  seq 1 ${count}: bash tool ${ms(oursFlood)}, to /dev/null ${ms(baseFlood)}, ` +
      `${ratio(oursFlood, baseFlood)}; peak +${mib(added)}; the floor, the output piped here ` +
      `and dropped: ${ms(piped)}, ${ratio(oursFlood, piped)}`,
  )
  return [
    {
      name: 'bash, a trivial command',
      ours: oursTrivial,
      baseline: floorTrivial,
      baselineName: 'spawn bash -c true, detached',
      memory: '',
      target: '≤ 1.3×',
      met: oursTrivial <= 1.3 * floorTrivial,
    },
    {
      name: 'bash, the first command of a session',
      ours: first,
      baseline: later,
      baselineName: 'the later commands',
      memory: '',
      target: '≤ 1.3×',
      met: first <= 1.3 * later,
    },
    {
      name: `bash, seq 1 ${count}`,
      ours: oursFlood,
      baseline: baseFlood,
      baselineName: 'the same to /dev/null',
      memory: `+${mib(added)}`,
      target: '≤ 2×, ≤ +32 MiB',
      met: oursFlood <= 2 * baseFlood && added <= 32 * MIB,
    },
  ]
}
