// Child: the write baseline: the same text written with fs writeFile to a temp file, fsync,
// rename, directory fsync. Same args and report as children/write.mjs.
import { buildText } from '../lib/data.mjs'
import { writeAtomically } from '../lib/atomic.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { file, bytes, seed } = childArgs()
const content = buildText(bytes, seed)
const result = await measure(() => writeAtomically(file, content))
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
