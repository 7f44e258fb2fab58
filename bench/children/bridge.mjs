// Child: `calls` small read calls, timed as one block after WARMUP_CALLS untimed ones. mode 'acp': one scripted session
// through the real SDK client over in-memory streams (the acp-testing harness: scripted model,
// agent host, bridge, fs stack), whose model calls `read` once per turn (readingScript).
// The session runs in the permission mode `permission` (`ask`: each read inside the workspace
// is classified and allowed; `full-access`: the permission layer steps aside at once).
// mode 'direct': the same calls through ctx.tools.execute on the same file stack as the app's
// (the editor provider with no editor, FsPolicy, the permission layer in `ask`).
// Args: { mode, calls, files, permission? }.
import { tempDir } from '../lib/data.mjs'
import { callTool, dist, fakeAgent, loadStack } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'
import {
  PROMPTS_TEXT,
  WARMUP_CALLS,
  fileName as smallFileName,
  promptsFor,
  readingScript,
  seedSmallFiles,
} from '../lib/small-files.mjs'

const { mode, calls, files, permission = 'ask' } = childArgs()
const fileName = (i) => smallFileName(i, files)

async function viaAcp() {
  const { createAcpHarness } = await import(dist('acp-testing'))
  const harness = await createAcpHarness({
    script: readingScript(WARMUP_CALLS + calls, files),
    withFs: true,
    mode: permission,
  })
  seedSmallFiles(harness.workspace, files)
  const sessionId = await harness.newSession()
  const prompts = async (count) => {
    for (let i = 0; i < count; i++) {
      const response = await harness.prompt(sessionId, PROMPTS_TEXT)
      if (response.stopReason !== 'end_turn') throw new Error(`stopped: ${response.stopReason}`)
    }
  }
  await prompts(promptsFor(WARMUP_CALLS))
  const result = await measure(() => prompts(promptsFor(calls)))
  const completed =
    harness
      .updatesOf(sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed').length -
    WARMUP_CALLS
  await harness.dispose()
  if (completed !== calls) throw new Error(`the session completed ${completed} of ${calls} calls`)
  return result
}

async function direct() {
  const temp = tempDir('bridge')
  try {
    seedSmallFiles(temp.dir, files)
    const ctx = await loadStack({ cwd: temp.dir, policy: true, app: true })
    const agent = fakeAgent(temp.dir)
    const reads = async (from, count) => {
      for (let i = from; i < from + count; i++) {
        await callTool(ctx, { name: 'read', arguments: { file_path: fileName(i) }, agent })
      }
    }
    await reads(0, WARMUP_CALLS)
    return await measure(() => reads(WARMUP_CALLS, calls))
  } finally {
    temp.remove()
  }
}

const result = mode === 'acp' ? await viaAcp() : await direct()
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
