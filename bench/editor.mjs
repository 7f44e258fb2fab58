// Benchmark editor file access: a read (the first 2000-line window) and an edit of one
// ~1 MiB text file through a real ACP session whose client is an editor (fs/read_text_file,
// fs/write_text_file over the SDK's in-memory streams), against the same two calls on the
// disk (a client without the fs methods). Each run is a fresh child; the calls alone are
// timed. No target: the figure says what the editor's round trip costs.
import { alternate, runChild } from './lib/child.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

export async function run({ runs }) {
  const bytes = 1024 * 1024
  const results = alternate(
    runs,
    () => runChild('editor.mjs', { path: 'editor', bytes }),
    () => runChild('editor.mjs', { path: 'disk', bytes }),
  )
  const rows = []
  for (const step of ['read', 'edit']) {
    const ours = median(results.ours.map((r) => r[step]))
    const baseline = median(results.baseline.map((r) => r[step]))
    console.log(
      `  ${step} of 1 MiB: editor ${ms(ours)}, disk ${ms(baseline)}, ${ratio(ours, baseline)}`,
    )
    rows.push({
      name: `editor ${step}, 1 MiB`,
      ours,
      baseline,
      baselineName: `${step} from disk`,
      memory:
        step === 'edit' ? `+${mib(max(results.ours.map((r) => r.rssAfter - r.rssBefore)))}` : '',
      target: 'none (reported)',
    })
  }
  return rows
}
