// Child-side measurement: elapsed time of one operation (performance.now, startup and plugin
// load excluded) and the process's peak RSS before and after it, printed as one JSON line.
import { performance } from 'node:perf_hooks'

const maxRss = () => process.resourceUsage().maxRSS * 1024

/** Runs `operation` once, measured; returns `{ ms, rssBefore, rssAfter, value }`. */
export async function measure(operation) {
  const rssBefore = maxRss()
  const start = performance.now()
  const value = await operation()
  const elapsed = performance.now() - start
  return { ms: elapsed, rssBefore, rssAfter: maxRss(), value }
}

/** The JSON argument a child was started with. */
export function childArgs() {
  return JSON.parse(process.argv[2] ?? '{}')
}

/** Prints the child's report as the last stdout line. */
export function report(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`)
}
