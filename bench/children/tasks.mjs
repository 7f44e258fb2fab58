// Child: delegated tasks on the app's stack from the BUILT packages — the fs stack on a temp
// workspace, the OpenAI-compatible model against the bench's model server on 127.0.0.1
// (../lib/model-server.mjs), the agent host and the task tool. The server tells the parent and a
// delegate apart by the system prompt (a delegate's says it is one) and answers every delegate
// request `delayMs` late: a delegate reads a file, then reports. Args: { shape, delayMs }:
// `together` — one response with two explorer tasks; `alone` — one explorer task; `apart` — two
// responses with one explorer task each; `general` — one response with two general tasks;
// `general-alone` — one general task. Each
// child first runs one untimed task in a session of its own (the code warm), then times one
// turn of a fresh session; it checks that every task's report reached the parent.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../lib/data.mjs'
import { startModelServer } from '../lib/model-server.mjs'
import { dist, loadStack } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { shape, delayMs } = childArgs()
const work = tempDir('tasks-work')
writeFileSync(join(work.dir, 'notes.md'), 'The loader lives in src/load.ts.\n')

const task = (name, type = 'explorer') => ({
  name: 'task',
  arguments: {
    description: `look ${name}`,
    prompt: `Read notes.md and report what it says (task ${name}).`,
    agent_type: type,
  },
})
/** The parent's calls, response by response, for each shape (then a closing text). */
const PLANS = {
  together: [[task('A'), task('B')]],
  alone: [[task('A')]],
  apart: [[task('A')], [task('B')]],
  general: [[task('A', 'general'), task('B', 'general')]],
  'general-alone': [[task('A', 'general')]],
}
let plan = [[task('warm-up')]]
let lastParent

const toolResults = (body) => body.messages.filter((m) => m.role === 'tool')
const next = (_n, body) => {
  const results = toolResults(body)
  if (String(body.messages[0]?.content).includes('You are a delegate')) {
    const answer =
      results.length === 0
        ? { calls: [{ name: 'read', arguments: { file_path: 'notes.md' } }] }
        : { text: `Report: ${results[0].content.includes('src/load.ts') ? 'src/load.ts' : '?'}` }
    return { ...answer, delayMs }
  }
  lastParent = body
  const step = plan.findIndex((_calls, index) => results.length < countUpTo(index + 1))
  return step === -1 ? { text: 'Both reported.' } : { calls: plan[step] }
}
/** The tool results the parent has seen once its first `steps` responses are answered. */
const countUpTo = (steps) => plan.slice(0, steps).reduce((sum, calls) => sum + calls.length, 0)

const server = await startModelServer({ window: 131_072, next })
const ctx = await loadStack({ cwd: work.dir, policy: true })
const { default: OpenAiLlm } = await import(dist('llm-openai'))
const { default: Agents } = await import(dist('agent'))
const ToolTask = await import(dist('tool-task'))
await ctx.plugin(OpenAiLlm, { baseUrl: server.url, contextWindow: 131_072, retryBaseMs: 1 })
await (await ctx.plugin(Agents)).await?.()
await ctx.plugin(ToolTask)

async function turn() {
  const agent = ctx.agents.create({ cwd: work.dir })
  const end = await agent.send('Delegate the reading.')
  if (end.reason !== 'completed') throw new Error(`the turn ended ${end.reason}: ${end.error}`)
  const reports = toolResults(lastParent).map((m) => m.content)
  const expected = countUpTo(plan.length)
  if (reports.length !== expected || !reports.every((text) => text === 'Report: src/load.ts')) {
    throw new Error(`expected ${expected} reports, the parent got: ${JSON.stringify(reports)}`)
  }
  await agent.dispose()
}

await turn()
plan = PLANS[shape]
const result = await measure(turn)
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
await server.close()
work.remove()
process.exit(0)
