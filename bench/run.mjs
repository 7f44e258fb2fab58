// The benchmark runner (`npm run bench`, or `node bench/run.mjs [--quick] [--only a,b]
// [--runs N]`): prints the machine, runs each benchmark (ours and its baseline alternately),
// then a summary of every target. Benchmarks measure; they are not tests and never fail a build.
import { createFixtures } from './lib/fixtures.mjs'
import { formatMachine, machineInfo } from './lib/machine.mjs'
import { ms, ratio, table } from './lib/stats.mjs'

const BENCHMARKS = [
  'small',
  'read',
  'continue',
  'edit',
  'write',
  'bridge',
  'editor',
  'load',
  'growth',
  'big-write',
  'search',
  'long',
  'shell',
  'mcp',
  'sandbox',
  'start',
  'tasks',
  'diagnostics',
  'undo',
]

function parseArgs(argv) {
  const options = { quick: false, only: BENCHMARKS, runs: undefined }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--quick') options.quick = true
    else if (arg === '--only') options.only = argv[++i]?.split(',') ?? []
    else if (arg === '--runs') options.runs = Number(argv[++i])
    else throw new Error(`unknown argument ${arg} (use --quick, --only a,b, --runs N)`)
  }
  const unknown = options.only.filter((name) => !BENCHMARKS.includes(name))
  if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown} (${BENCHMARKS})`)
  if (options.runs !== undefined && !(Number.isInteger(options.runs) && options.runs > 0)) {
    throw new Error('--runs takes a positive integer')
  }
  options.runs ??= options.quick ? 3 : 5
  return options
}

const options = parseArgs(process.argv.slice(2))
console.log(formatMachine(machineInfo()))
console.log(`runs: ${options.runs} each, ${options.quick ? 'quick sizes' : 'full sizes'}\n`)

const fixtures = createFixtures(options)
// The shared file is large: remove it on Ctrl-C too.
process.on('SIGINT', () => {
  fixtures.cleanup()
  process.exit(130)
})
const rows = []
let failed = false
try {
  for (const name of options.only) {
    console.log(`## ${name}`)
    try {
      const benchmark = await import(`./${name}.mjs`)
      rows.push(...(await benchmark.run({ ...options, fixtures })))
    } catch (error) {
      failed = true
      console.log(`  failed: ${error instanceof Error ? error.message : String(error)}`)
      rows.push({ name, ours: NaN, baseline: NaN, baselineName: '', memory: '', target: '' })
    }
    console.log('')
  }
} finally {
  fixtures.cleanup()
}

const verdict = (met) => (met === undefined ? '—' : met ? 'yes' : 'NO')
console.log('## summary')
console.log(
  table([
    ['benchmark', 'ours', 'baseline', 'vs', 'ratio', 'memory', 'target', 'met'],
    ...rows.map((row) => [
      row.name,
      ms(row.ours),
      ms(row.baseline),
      row.baselineName,
      ratio(row.ours, row.baseline),
      row.memory,
      row.target,
      Number.isNaN(row.ours) ? 'error' : verdict(row.met),
    ]),
  ]),
)
process.exitCode = failed ? 1 : 0
console.log(`\nload at the end: ${machineInfo().load}`)
