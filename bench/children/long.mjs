// Child: a long session on the app's stack from the BUILT packages — the fs stack on a temp
// workspace of 40 source files, the OpenAI-compatible model against the bench's model server
// on 127.0.0.1 (./lib/model-server.mjs), the agent host — for the compaction and call
// benchmarks. Args: { mode: 'session', turns, window } — `turns` turns, each a read of one file
// then an answer, reporting the time spent compacting, the requests that kept the previous
// request whole as their prefix, and the largest request against the window; or
// { mode: 'greps', together } — one turn of 8 greps over 8 large files, in one response
// (`together`) or in 8 responses one after another.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { tempDir } from '../lib/data.mjs'
import { startModelServer } from '../lib/model-server.mjs'
import { dist, loadStack } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const args = childArgs()
const work = tempDir('long-work')
const files = args.mode === 'greps' ? 8 : 40
const lines = args.mode === 'greps' ? 2000 : 150
for (let i = 0; i < files; i++) {
  const text = Array.from(
    { length: lines },
    (_, n) => `export const v${n} = 'file ${i}, line ${n + 1}: some ordinary code'`,
  )
  writeFileSync(join(work.dir, `f${i}.ts`), `${text.join('\n')}\n`)
}
const read = (i) => ({ name: 'read', arguments: { file_path: `f${i}.ts` } })
// Each grep searches the whole workspace for lines of one file (ripgrep, through the tool).
const grep = (i) => ({
  name: 'grep',
  arguments: { pattern: `file ${i}, line 1[0-9]{2}:`, output_mode: 'content' },
})
const next =
  args.mode === 'greps'
    ? args.together
      ? (n) =>
          n === 0 ? { calls: Array.from({ length: 8 }, (_, i) => grep(i)) } : { text: 'Found.' }
      : (n) => (n < 8 ? { calls: [grep(n)] } : { text: 'Found.' })
    : (n) =>
        n % 2 === 0
          ? { calls: [read((n / 2) % files)] }
          : { text: `Looked at f${((n - 1) / 2) % files}.ts.` }
const window = args.window ?? 131_072
const server = await startModelServer({ window, next })

const ctx = await loadStack({ cwd: work.dir, policy: true })
const { default: OpenAiLlm } = await import(dist('llm-openai'))
const { default: Agents } = await import(dist('agent'))
await ctx.plugin(OpenAiLlm, { baseUrl: server.url, contextWindow: window, retryBaseMs: 1 })
await (await ctx.plugin(Agents)).await?.()
const agent = ctx.agents.create({ cwd: work.dir })
let compactionMs = 0
let started = 0
let compactions = 0
agent.subscribe((event) => {
  if (event.type === 'context/compacting') started = performance.now()
  if (event.type === 'context/compacted') {
    compactionMs += performance.now() - started
    compactions += 1
  }
})

const turns = args.mode === 'greps' ? 1 : args.turns
const result = await measure(async () => {
  for (let turn = 0; turn < turns; turn++) {
    const end = await agent.send(
      args.mode === 'greps' ? 'Search the eight files.' : `Turn ${turn}: look at the next file.`,
    )
    if (end.reason !== 'completed')
      throw new Error(`turn ${turn} ended ${end.reason}: ${end.error}`)
  }
})
const asked = server.requests.filter((r) => !r.summary)
report({
  ms: result.ms,
  rssBefore: result.rssBefore,
  rssAfter: result.rssAfter,
  turns,
  compactionMs,
  compactions,
  summaries: server.requests.filter((r) => r.summary).length,
  requests: asked.length,
  kept: asked.filter((r) => r.keptPrefix).length,
  refused: server.requests.filter((r) => r.refused).length,
  promptTokens: server.requests.reduce((sum, r) => sum + (r.refused ? 0 : r.tokens), 0),
  cachedTokens: server.requests.reduce((sum, r) => sum + (r.cached ?? 0), 0),
  summaryTokens: server.requests.reduce((sum, r) => sum + (r.summary ? r.tokens : 0), 0),
  maxTokens: Math.max(...server.requests.map((r) => r.tokens)),
  window,
})
await server.close()
work.remove()
process.exit(0)
