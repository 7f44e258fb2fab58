// Benchmark `search`: the glob and grep tools (a fresh child per run, the call alone timed)
// against the same ripgrep binary run bare with the same flags, its output to /dev/null. The
// corpus is a tree no one here wrote: the workspace's node_modules/.pnpm, hard-linked into a
// temp directory outside the repository (inside it, the root .gitignore leaves out every
// node_modules/ and both sides would search nothing) and searched as the path `pnpm`.
// Targets (SPEC §13): files_with_matches, count and glob ≤ 1.3× bare rg; a flood of matches
// (`.` in content mode) under 1 s with the peak memory +≤ 32 MiB.
import { execFileSync, spawnSync } from 'node:child_process'
import { closeSync, existsSync, openSync } from 'node:fs'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { alternate, runChild } from './lib/child.mjs'
import { tempDir } from './lib/data.mjs'
import { max, median, mib, ms, ratio } from './lib/stats.mjs'

const MEMORY_LIMIT = 32 * 2 ** 20
const BASE = ['--no-config', '--hidden', '--glob', '!.git', '--color', 'never']
// A word in a few hundred files: the whole result fits the tool's caps (250 lines, 30,000
// characters), so the tool, like bare rg, searches the whole corpus.
const WORD = 'TODO'

async function ripgrep() {
  const require = createRequire(new URL('../packages/tool-search/package.json', import.meta.url))
  const { rgPath } = await import(require.resolve('@vscode/ripgrep'))
  return rgPath
}

/** Bare ripgrep, timed from outside (spawn included), its stdout to /dev/null. */
function timeBare(rg, args, cwd) {
  const devNull = openSync('/dev/null', 'w')
  try {
    const start = performance.now()
    const run = spawnSync(rg, args, { cwd, stdio: ['ignore', devNull, 'pipe'] })
    const elapsed = performance.now() - start
    if (run.status !== 0) throw new Error(`rg ${args.join(' ')} failed: ${run.stderr}`)
    return { ms: elapsed }
  } finally {
    closeSync(devNull)
  }
}

export async function run({ runs }) {
  const pnpm = fileURLToPath(new URL('../node_modules/.pnpm', import.meta.url))
  if (!existsSync(pnpm)) throw new Error('node_modules/.pnpm is missing: install first')
  const temp = tempDir('search')
  try {
    execFileSync('cp', ['-al', pnpm, `${temp.dir}/pnpm`])
    const rg = await ripgrep()
    const cwd = temp.dir
    const warm = 'pnpm/zod@4.6.7'
    const cases = [
      {
        label: `grep files_with_matches "${WORD}"`,
        tool: { name: 'grep', arguments: { pattern: WORD, path: 'pnpm' } },
        bare: [...BASE, '--sort', 'path', '--files-with-matches', '--null', WORD, 'pnpm'],
        target: 1.3,
      },
      {
        label: `grep count "${WORD}"`,
        tool: { name: 'grep', arguments: { pattern: WORD, path: 'pnpm', output_mode: 'count' } },
        bare: [...BASE, '--sort', 'path', '--count', '--null', WORD, 'pnpm'],
        target: 1.3,
      },
      {
        label: 'glob **/*.d.ts',
        tool: { name: 'glob', arguments: { pattern: '**/*.d.ts', path: 'pnpm' } },
        bare: [...BASE, '--files', '--null', '--glob', '**/*.d.ts', 'pnpm'],
        target: 1.3,
      },
    ]
    const rows = []
    for (const { label, tool, bare, target } of cases) {
      const results = alternate(
        runs,
        () => runChild('search.mjs', { cwd, ...tool, warm }),
        () => timeBare(rg, bare, cwd),
      )
      const ours = median(results.ours.map((r) => r.ms))
      const baseline = median(results.baseline.map((r) => r.ms))
      const added = max(results.ours.map((r) => r.rssAfter - r.rssBefore))
      const shown = results.ours[0]
      console.log(
        `  ${label}: tool ${ms(ours)}, bare rg ${ms(baseline)}, ${ratio(ours, baseline)}, ` +
          `peak +${mib(added)}; ${shown.lines} lines, ${shown.chars} chars`,
      )
      rows.push({
        name: `search ${label}`,
        ours,
        baseline,
        baselineName: 'bare rg',
        memory: `+${mib(added)}`,
        target: `≤ ${target}×`,
        met: ours <= target * baseline,
      })
    }
    rows.push(...flood(runs, cwd, warm))
    return rows
  } finally {
    temp.remove()
  }
}

/** `.` in content mode: the default call (250 lines) and head_limit 0 (the 30,000-char cap). */
function flood(runs, cwd, warm) {
  const rows = []
  for (const [label, extra] of [
    ['flood "." content', {}],
    ['flood "." content, head_limit 0', { head_limit: 0 }],
  ]) {
    const args = { pattern: '.', path: 'pnpm', output_mode: 'content', ...extra }
    const results = Array.from({ length: runs }, () =>
      runChild('search.mjs', { cwd, name: 'grep', arguments: args, warm }),
    )
    const ours = median(results.map((r) => r.ms))
    const added = max(results.map((r) => r.rssAfter - r.rssBefore))
    console.log(
      `  ${label}: ${ms(ours)}, peak +${mib(added)}; ${results[0].chars} chars, ` +
        `closing: ${results[0].closing}`,
    )
    rows.push({
      name: `search ${label}`,
      ours,
      baseline: NaN,
      baselineName: '',
      memory: `+${mib(added)}`,
      target: '< 1 s, ≤ +32 MiB',
      met: ours < 1000 && added <= MEMORY_LIMIT,
    })
  }
  return rows
}
