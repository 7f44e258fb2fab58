// Child: one `glob` or `grep` call through ctx.tools.execute on the app's tool stack, timed
// (startup, plugin load and a warm-up search of a small folder excluded). Args: { cwd, name,
// arguments, warm }. Reports ms, peak RSS before/after, the result's length and closing line.
import { callTool, fakeAgent, loadStack } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { cwd, name, arguments: args, warm } = childArgs()
const ctx = await loadStack({ cwd })
const agent = fakeAgent(cwd)
// The code paths compiled once, on a small folder: the timed call measures the search.
await callTool(ctx, { name, arguments: { ...args, path: warm }, agent })
const result = await measure(() => callTool(ctx, { name, arguments: args, agent }))
const text = result.value.content.map((block) => block.text).join('\n')
report({
  ms: result.ms,
  rssBefore: result.rssBefore,
  rssAfter: result.rssAfter,
  chars: text.length,
  lines: text.split('\n').length,
  closing: text.split('\n').at(-1),
})
