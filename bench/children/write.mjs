// Child: one `write` tool call in a fresh process, overwriting an existing file as an agent
// does: FsPolicy loaded, an untimed read (limit 1) first, then the timed write of `bytes` of
// new text (built before the timer starts). Args: { file, bytes, seed }.
import { dirname } from 'node:path'
import { buildText } from '../lib/data.mjs'
import { callTool, fakeAgent, loadStack } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { file, bytes, seed } = childArgs()
const content = buildText(bytes, seed)
const ctx = await loadStack({ cwd: dirname(file), policy: true })
const agent = fakeAgent(dirname(file))
await callTool(ctx, { name: 'read', arguments: { file_path: file, limit: 1 }, agent })
const result = await measure(() =>
  callTool(ctx, { name: 'write', arguments: { file_path: file, content }, agent }),
)
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
