// Benchmark what an MCP server costs the opening of a session: session/new through the
// `dsh-acp` bin over real stdio with one stdio MCP server against none, in one bin,
// alternately (the server is started after the response and ended by session/close).
// Target: the server adds at most 10 ms to the response.
import { runChild } from './lib/child.mjs'
import { median, ms } from './lib/stats.mjs'

export async function run({ runs, quick }) {
  const sessions = quick ? 10 : 20
  const times = { with: [], without: [] }
  for (let i = 0; i < runs; i++) {
    const result = runChild('mcp.mjs', { sessions, warmup: 3 })
    times.with.push(...result.with)
    times.without.push(...result.without)
  }
  const ours = median(times.with)
  const baseline = median(times.without)
  const added = ours - baseline
  console.log(
    `  session/new with one stdio MCP server ${ms(ours)}, with none ${ms(baseline)}: ` +
      `${added >= 0 ? '+' : ''}${ms(added)} (${times.with.length} sessions each)`,
  )
  return [
    {
      name: 'session/new, one stdio MCP server',
      ours,
      baseline,
      baselineName: 'no MCP server',
      memory: '',
      target: '≤ +10 ms',
      met: added <= 10,
    },
  ]
}
