// Child: one `read` tool call in a fresh process, timed; with `page`, an untimed read at
// `offset` first, then the timed one at the offset its footer gives (an agent paging on).
// Args: { file, offset, limit, page? }. Reports ms, peak RSS before/after and the window.
import { dirname } from 'node:path'
import { callTool, loadStack } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { file, offset, limit, page = false } = childArgs()
const ctx = await loadStack({ cwd: dirname(file) })
const read = (at) =>
  callTool(ctx, { name: 'read', arguments: { file_path: file, offset: at, limit } })

let at = offset
if (page) {
  const first = await read(offset)
  const next = /Use offset=(\d+) to continue/.exec(first.content[0].text)
  if (!next) throw new Error('the first window has no continuation footer')
  at = Number(next[1])
}
const result = await measure(() => read(at))
const { startLine, endLine, totalLines, capped } = result.value.details
report({
  ms: result.ms,
  rssBefore: result.rssBefore,
  rssAfter: result.rssAfter,
  window: { startLine, endLine, totalLines, capped },
})
