// Runs one measurement in a fresh process: a node child script that prints one JSON line
// (`{ ms, rssBefore, rssAfter, ... }`, measured inside the child), or a shell command timed
// from outside with spawnSync (the baselines wc and sed, which cannot time themselves).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'

const CHILDREN = new URL('../children/', import.meta.url)

/** Runs `bench/children/<script>` with `args` (JSON) and returns its parsed report. */
export function runChild(script, args) {
  const path = fileURLToPath(new URL(script, CHILDREN))
  const result = spawnSync(process.execPath, [path, JSON.stringify(args)], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  })
  if (result.status !== 0) {
    throw new Error(`${script} failed (exit ${result.status}):\n${result.stderr}${result.stdout}`)
  }
  const last = result.stdout.trim().split('\n').pop()
  return JSON.parse(last)
}

/** Times a command (wall clock, spawn included) and returns `{ ms, stdout }`. */
export function timeCommand(command, args) {
  const start = performance.now()
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })
  const elapsed = performance.now() - start
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`)
  return { ms: elapsed, stdout: result.stdout }
}

/** Calls `ours()` and `baseline()` alternately `runs` times; returns both result lists. */
export function alternate(runs, ours, baseline) {
  const results = { ours: [], baseline: [] }
  for (let i = 0; i < runs; i++) {
    results.ours.push(ours(i))
    results.baseline.push(baseline(i))
  }
  return results
}
