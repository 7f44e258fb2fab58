// Child: a flood of output, `seq 1 N`, measured once. `ours`: through the bash tool (output
// decoded, batched as live output, capped for the model, the whole of it written to a file);
// `baseline`: the same `bash -c` spawned with its stdout to /dev/null; `pipe`: the floor, the
// same with its output piped to this process and dropped unread. Args: { count, side }.
// Reports { ms, rssBefore, rssAfter }.
import { spawn } from 'node:child_process'
import { openSync, closeSync } from 'node:fs'
import { tempDir } from '../lib/data.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'
import { shellAgent, loadShellStack } from '../lib/shell-stack.mjs'
import { callTool } from '../lib/stack.mjs'

const { count, side } = childArgs()
const temp = tempDir('shell-flood')
const command = `seq 1 ${count}`

let result
if (side === 'ours') {
  const ctx = await loadShellStack({ cwd: temp.dir, outputDir: `${temp.dir}/.output` })
  const agent = shellAgent(temp.dir)
  await callTool(ctx, { name: 'bash', arguments: { command: 'seq 1 10' }, agent })
  result = await measure(() => callTool(ctx, { name: 'bash', arguments: { command }, agent }))
} else if (side === 'pipe') {
  result = await measure(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] })
        child.stdout.resume()
        child.stderr.resume()
        child.on('error', reject)
        child.on('close', resolve)
      }),
  )
} else {
  const devNull = openSync('/dev/null', 'w')
  result = await measure(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn('bash', ['-c', command], { stdio: ['ignore', devNull, 'pipe'] })
        child.on('error', reject)
        child.on('close', resolve)
      }),
  )
  closeSync(devNull)
}
temp.remove()
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
process.exit(0)
