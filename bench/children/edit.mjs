// Child: one `edit` tool call in a fresh process with FsPolicy loaded, as an agent makes it:
// an untimed read (limit 1) records the file, then one timed replacement of a unique string.
// Args: { file, oldString, newString, maxEditBytes? }. Reports ms and peak RSS before/after.
import { dirname } from 'node:path'
import { callTool, fakeAgent, loadStack } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { file, oldString, newString, maxEditBytes } = childArgs()
const ctx = await loadStack({ cwd: dirname(file), policy: true, maxEditBytes })
const agent = fakeAgent(dirname(file))
await callTool(ctx, { name: 'read', arguments: { file_path: file, limit: 1 }, agent })
const edit = { file_path: file, old_string: oldString, new_string: newString }
const result = await measure(() => callTool(ctx, { name: 'edit', arguments: edit, agent }))
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
