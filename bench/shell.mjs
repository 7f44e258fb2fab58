// Benchmark the shell tool: a trivial command (`true`) through `bash` against a bare
// child_process.spawn of the same (target ≤ 1.3×, medians per call), and `seq 1 5000000`
// (quick 500000) through `bash` against the same spawned to /dev/null (target ≤ 2×, peak
// memory added ≤ 32 MiB). Each also prints its floor: the bare spawn in a process group of its
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
    `  true: bash tool ${ms(oursTrivial)}, bare spawn ${ms(baseTrivial)}, ` +
      `${ratio(oursTrivial, baseTrivial)} (medians per call); the floor, a bare spawn with ` +
      `its own process group (detached): ${ms(floorTrivial)}, ${ratio(oursTrivial, floorTrivial)}`,
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
      baseline: baseTrivial,
      baselineName: 'child_process.spawn bash -c true',
      memory: '',
      target: '≤ 1.3×',
      met: oursTrivial <= 1.3 * baseTrivial,
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
