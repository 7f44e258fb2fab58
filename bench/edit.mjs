// Benchmark `edit`: one replacement of a unique string in the middle of a 50 MiB file
// (quick: 5 MiB) through the edit tool (FsPolicy loaded, after a read) against a bare Node
// script that reads, replaces and writes atomically. Each run swaps the marker back and forth.
// Targets (SPEC §13): within 1.5×; peak memory added within 3× the file size.
import { alternate, runChild } from './lib/child.mjs'
import { tempDir, writeTextFile } from './lib/data.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

const markers = ['@@bench-edit-marker-A@@', '@@bench-edit-marker-B@@']
const swap = (i) => ({ oldString: markers[i % 2], newString: markers[(i + 1) % 2] })

export async function run({ runs, quick }) {
  const temp = tempDir('edit')
  try {
    const bytes = (quick ? 5 : 50) * 2 ** 20
    const ours = writeTextFile(`${temp.dir}/ours.txt`, bytes, { marker: markers[0] })
    const base = writeTextFile(`${temp.dir}/base.txt`, bytes, { marker: markers[0] })
    const results = alternate(
      runs,
      (i) => runChild('edit.mjs', { file: ours.path, ...swap(i) }),
      (i) => runChild('edit-baseline.mjs', { file: base.path, ...swap(i) }),
    )
    const oursMs = median(results.ours.map((r) => r.ms))
    const baseMs = median(results.baseline.map((r) => r.ms))
    const added = (list) => max(list.map((r) => r.rssAfter - r.rssBefore))
    const factor = added(results.ours) / ours.size
    console.log(
      `  ${mib(ours.size)}: edit ${ms(oursMs)}, bare node ${ms(baseMs)}, ${ratio(oursMs, baseMs)}; ` +
        `peak +${mib(added(results.ours))} (${factor.toFixed(2)}× the file; ` +
        `bare node +${mib(added(results.baseline))})`,
    )
    return [
      {
        name: 'edit',
        ours: oursMs,
        baseline: baseMs,
        baselineName: 'node read+replace+atomic write',
        memory: `+${mib(added(results.ours))} (${factor.toFixed(2)}× file)`,
        target: '≤ 1.5×, ≤ 3× file',
        met: oursMs <= 1.5 * baseMs && factor <= 3,
      },
    ]
  } finally {
    temp.remove()
  }
}
