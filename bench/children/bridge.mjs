// Child: `calls` small read calls, timed as one block. mode 'acp': one scripted session
// through the real SDK client over in-memory streams (the acp-testing harness: scripted model,
// agent host, bridge, fs stack), one prompt whose model calls `read` once per turn.
// The session runs in the permission mode `permission` (`ask`: each read inside the workspace
// is classified and allowed; `full-access`: the permission layer steps aside at once).
// mode 'direct': the same calls through ctx.tools.execute on the same fs stack.
// Args: { mode, calls, files, permission? }.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDir } from '../lib/data.mjs'
import { callTool, dist, fakeAgent, loadStack } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { mode, calls, files, permission = 'ask' } = childArgs()
const fileName = (i) => `small-${i % files}.txt`
const smallText = (i) =>
  Array.from({ length: 40 }, (_, line) => `file ${i} line ${line + 1}: some text`).join('\n')

async function seed(dir) {
  for (let i = 0; i < files; i++) await writeFile(join(dir, fileName(i)), `${smallText(i)}\n`)
}

async function viaAcp() {
  const { createAcpHarness } = await import(dist('acp-testing'))
  const turns = Array.from({ length: calls }, (_, i) => ({
    toolCalls: [{ id: `read-${i}`, name: 'read', arguments: { file_path: fileName(i) } }],
  }))
  turns.push({ text: 'All files read.' })
  const harness = await createAcpHarness({
    script: { turns },
    withFs: true,
    maxSteps: calls + 10,
    mode: permission,
  })
  await seed(harness.workspace)
  const sessionId = await harness.newSession()
  const result = await measure(() => harness.prompt(sessionId, 'read them all'))
  const completed = harness
    .updatesOf(sessionId)
    .filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed').length
  await harness.dispose()
  if (result.value.stopReason !== 'end_turn' || completed !== calls) {
    throw new Error(`the session ended ${result.value.stopReason} after ${completed} calls`)
  }
  return result
}

async function direct() {
  const temp = tempDir('bridge')
  try {
    await seed(temp.dir)
    const ctx = await loadStack({ cwd: temp.dir, policy: true })
    const agent = fakeAgent(temp.dir)
    return await measure(async () => {
      for (let i = 0; i < calls; i++) {
        await callTool(ctx, { name: 'read', arguments: { file_path: fileName(i) }, agent })
      }
    })
  } finally {
    temp.remove()
  }
}

const result = mode === 'acp' ? await viaAcp() : await direct()
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
