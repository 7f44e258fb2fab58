// Benchmark `write`: a 50 MiB write (quick: 5 MiB) through the write tool, overwriting an
// existing file after a read with FsPolicy loaded (what an agent does), against fs writeFile
// to a temp file + fsync + rename + directory fsync of the same text. No target in SPEC §13.
import { alternate, runChild } from './lib/child.mjs'
import { tempDir, writeTextFile } from './lib/data.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

export async function run({ runs, quick }) {
  const temp = tempDir('write')
  try {
    const bytes = (quick ? 5 : 50) * 2 ** 20
    const ours = writeTextFile(`${temp.dir}/ours.txt`, bytes)
    const base = writeTextFile(`${temp.dir}/base.txt`, bytes)
    const args = (file, i) => ({ file, bytes, seed: 2 + (i % 2) })
    const results = alternate(
      runs,
      (i) => runChild('write.mjs', args(ours.path, i)),
      (i) => runChild('write-baseline.mjs', args(base.path, i)),
    )
    const oursMs = median(results.ours.map((r) => r.ms))
    const baseMs = median(results.baseline.map((r) => r.ms))
    const added = (list) => max(list.map((r) => r.rssAfter - r.rssBefore))
    console.log(
      `  ${mib(bytes)} overwrite after a read (policy on): write ${ms(oursMs)}, ` +
        `writeFile+fsync+rename ${ms(baseMs)}, ${ratio(oursMs, baseMs)}; ` +
        `peak +${mib(added(results.ours))} (baseline +${mib(added(results.baseline))})`,
    )
    return [
      {
        name: 'write',
        ours: oursMs,
        baseline: baseMs,
        baselineName: 'writeFile+fsync+rename',
        memory: `+${mib(added(results.ours))}`,
        target: 'none (reported)',
        met: undefined,
      },
    ]
  } finally {
    temp.remove()
  }
}
