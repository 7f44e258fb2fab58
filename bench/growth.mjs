// Benchmark how the file tools grow with the file: read (a window at the start, the middle and
// the end), edit (one unique string in the middle) and write (the whole file anew) at 1 MiB,
// 16 MiB, 256 MiB and 1 GiB (quick: 1 and 16 MiB), each in a fresh child: time and the peak
// memory the call added. Edit runs with the disk's edit limit raised to the file (it is 64 MiB
// by default); at 1 GiB neither edit nor write can run, since the file's text is longer than a
// JavaScript string can be. No targets: the table shows what grows with what.
import { runChild } from './lib/child.mjs'
import { tempDir, writeTextFile } from './lib/data.mjs'
import { median, mib, ms, table } from './lib/stats.mjs'

const MARKERS = ['@@bench-growth-marker-A@@', '@@bench-growth-marker-B@@']
/** The longest string V8 makes (2^29 - 24 UTF-16 code units): no longer text can be edited. */
const MAX_TEXT = 2 ** 29 - 24

export async function run({ runs, quick, fixtures }) {
  const sizes = (quick ? [1, 16] : [1, 16, 256, 1024]).map((m) => m * 2 ** 20)
  const times = Math.min(runs, 3)
  const lines = [['size', 'read start', 'read middle', 'read end', 'edit', 'write']]
  for (const bytes of sizes) {
    const temp = tempDir('growth')
    try {
      // The 1 GiB file is the one the read benchmarks share; the others are made here.
      const file =
        bytes === 2 ** 30 && !quick
          ? fixtures.bigText()
          : writeTextFile(`${temp.dir}/file.txt`, bytes, { marker: MARKERS[0] })
      const read = (offset) =>
        cell(times, () => runChild('read.mjs', { file: file.path, offset, limit: 2000 }))
      const fits = file.size < MAX_TEXT
      const edit = (i) => ({
        file: file.path,
        oldString: MARKERS[i % 2],
        newString: MARKERS[(i + 1) % 2],
        maxEditBytes: file.size + 1,
      })
      lines.push([
        mib(file.size),
        read(1),
        read(Math.floor(file.lines / 2)),
        read(file.lines - 1999),
        fits ? cell(times, (i) => runChild('edit.mjs', edit(i))) : 'too long a string',
        fits
          ? cell(times, () => runChild('write.mjs', { file: file.path, bytes, seed: 3 }))
          : 'too long a string',
      ])
      console.log(`  ${mib(file.size)}: ${lines.at(-1).slice(1).join(' | ')}`)
    } finally {
      temp.remove()
    }
  }
  console.log(`\n${table(lines)}`)
  return []
}

/** `time (+peak memory)` of a call, medians of `times` runs. */
function cell(times, runOnce) {
  const results = Array.from({ length: times }, (_, i) => runOnce(i))
  const time = median(results.map((r) => r.ms))
  const added = median(results.map((r) => r.rssAfter - r.rssBefore))
  return `${ms(time)} (+${mib(added)})`
}
