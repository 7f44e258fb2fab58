// Benchmark `diagnostics`: what the language servers add to an edit, on a generated TypeScript
// project of 200 modules (each imports two earlier ones) with this repository's typescript,
// the server run as the app runs it (in the read-only sandbox where bwrap works). One child:
// the `edit` tool without ctx.diagnostics (the baseline), then with it: the first edit (the
// server starts, loads the project, checks the file and its importers) and later edits, each
// timed from the call to its result. And the server's resident memory (its whole process
// group: typescript-language-server and tsserver), after the edits.
// Targets (SPEC §13): the first edit adds ≤ 3 s, a later one ≤ 400 ms.
import { runChild } from './lib/child.mjs'

export async function run({ runs, quick }) {
  const result = await runChild('diagnostics-edit.mjs', { files: quick ? 60 : 200, later: runs })
  const { baseline, first, later, rssBytes, sandboxed, errors } = result
  console.log(
    `  ${quick ? 60 : 200} modules, server ${sandboxed ? 'in the read-only sandbox' : 'unsandboxed'}: ` +
      `edit alone ${baseline.toFixed(1)} ms; with diagnostics the first ${first.toFixed(0)} ms, ` +
      `later ${later.toFixed(1)} ms (median of ${runs}); server RSS ${(rssBytes / 2 ** 20).toFixed(0)} MiB; ` +
      `errors reported as they should be: ${errors}`,
  )
  const row = (name, ours, target, met) => ({
    name,
    ours,
    baseline,
    baselineName: 'the edit without diagnostics',
    memory: name.startsWith('first') ? `server ${(rssBytes / 2 ** 20).toFixed(0)} MiB` : '',
    target,
    met,
  })
  return [
    row('first edit with diagnostics (server start)', first, '≤ +3 s', first - baseline <= 3000),
    row('later edit with diagnostics', later, '≤ +400 ms', later - baseline <= 400),
  ]
}
