// Child: the first command of a session against its later ones, on the app's stack with the
// shell tools in `ask` (so the command is classified, which needs the bash grammar). With
// `warm`, the grammar starts loading as the app starts it when a session opens
// (preloadBashParser), and the first command comes 1 s later (a model's first answer with a
// tool call takes at least that); without, the first command loads it. `pwd` only reads, so it runs unasked. Args:
// { later, warm }. Reports the first call's ms and the median of `later` more.
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { tempDir } from '../lib/data.mjs'
import { childArgs, report } from '../lib/measure.mjs'
import { shellAgent, loadShellStack } from '../lib/shell-stack.mjs'
import { callTool, dist } from '../lib/stack.mjs'
import { median } from '../lib/stats.mjs'

const { later, warm } = childArgs()
const temp = tempDir('shell-first')
const ctx = await loadShellStack({ cwd: temp.dir, outputDir: `${temp.dir}/.output` })
const args = { name: 'bash', arguments: { command: 'pwd' }, agent: shellAgent(temp.dir, 'ask') }
if (warm) {
  const { preloadBashParser } = await import(dist('tool-shell'))
  void preloadBashParser()
  await sleep(1000)
}
let start = performance.now()
await callTool(ctx, args)
const first = performance.now() - start
const times = []
for (let i = 0; i < later; i++) {
  start = performance.now()
  await callTool(ctx, args)
  times.push(performance.now() - start)
}
temp.remove()
report({ first, later: median(times) })
process.exit(0)
