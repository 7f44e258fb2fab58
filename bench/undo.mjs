// Benchmark undo's snapshots: a turn that changes one file of a 10,000-file tree (quick 2,000;
// 100 folders of small files, a .gitignore'd build folder beside them), recorded as the undo
// plugin records it (the BUILT package's GitUndoStore and TurnLog): the snapshot before the
// call, the change, the snapshot after it, the turn's record and its log written (the refs
// that keep its blobs follow off the turn's path, as in the plugin; their CPU is counted).
// Two rows, each against the same change alone: a turn whose change a file tool makes (the
// call names its file) and one whose change a command makes (a call without a file: both
// snapshots walk the tree). The first snapshot of a new store (every file hashed once) is
// reported beside, and the CPU a turn takes (this process and the git runs it waited for),
// which a busy machine does not inflate as it does the wall time. Target: ≤ +100 ms per turn.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { performance } from 'node:perf_hooks'
import { join } from 'node:path'
import { median } from './lib/stats.mjs'

const packages = new URL('../packages/', import.meta.url)

/** CPU ms this process and the children it waited for (git) have spent so far (Linux). */
function cpuMs() {
  const own = process.cpuUsage()
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  const children = (Number(fields[13]) + Number(fields[14])) * 10 // cutime, cstime; 100 ticks/s
  return (own.user + own.system) / 1000 + children
}

function makeTree(root, files) {
  const folders = 100
  for (let d = 0; d < folders; d++) {
    mkdirSync(join(root, `d${d}`))
    for (let f = 0; f < files / folders; f++)
      writeFileSync(join(root, `d${d}`, `f${f}.ts`), `export const v${d}_${f} = ${f}\n`.repeat(8))
  }
  writeFileSync(join(root, '.gitignore'), 'build/\n')
  mkdirSync(join(root, 'build'))
  for (let f = 0; f < 500; f++) writeFileSync(join(root, 'build', `out${f}.js`), 'x\n')
}

/**
 * Records `turns` turns that each change `changed`, named to the recorder or not (`byTool`), as
 * the plugin does: the log written before the call's result goes back, the refs that keep the
 * turn's blobs after it (their CPU is counted, their time is not the turn's).
 */
async function measure({ store, log, changed, turns, byTool, prefix }) {
  const file = byTool ? changed : undefined
  const turn = async (n) => {
    const start = performance.now()
    const recorder = store.begin('bench', [log.root])
    await recorder.beforeCall(file)
    writeFileSync(changed, `export const changed = ${prefix}${n}\n`)
    await recorder.afterCall(file)
    const done = await recorder.finish()
    if (done.changes.length !== 1)
      throw new Error(`expected one change, got ${done.changes.length}`)
    const entry = {
      turnId: `${prefix}${n}`,
      title: '',
      at: '',
      store: 'git',
      undone: false,
      ...done,
    }
    const dropped = log.turns.put(entry, 20)
    await log.turns.save()
    const took = performance.now() - start
    await store.retain('bench', log.turns.turns, dropped)
    return took
  }
  const ours = []
  const baseline = []
  let cpu = 0
  for (let n = 1; n <= turns; n++) {
    const cpuStart = cpuMs()
    ours.push(await turn(n))
    cpu += cpuMs() - cpuStart
    const start = performance.now()
    writeFileSync(changed, `export const changed = -${prefix}${n}\n`)
    baseline.push(performance.now() - start)
  }
  return { ours: median(ours), baseline: median(baseline), cpu: cpu / turns }
}

export async function run({ quick, runs }) {
  const { GitUndoStore, TurnLog } = await import(new URL('undo/dist/index.js', packages).href)
  const files = quick ? 2000 : 10000
  const turns = (quick ? 10 : 20) * Math.max(1, Math.ceil(runs / 3))
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bench-undo-')))
  const root = join(base, 'root')
  const state = join(base, 'state')
  mkdirSync(root)
  makeTree(root, files)
  try {
    const store = new GitUndoStore({ program: 'git', dir: state, maxFileBytes: 10 << 20 })
    const log = { root, turns: await TurnLog.open(state, 'bench') }
    const changed = join(root, 'd50', 'f5.ts')
    // The first turn of a new store: the walk before it hashes every file once.
    const start = performance.now()
    const recorder = store.begin('bench', [root])
    await recorder.beforeCall()
    await recorder.afterCall()
    const first = performance.now() - start
    const load = loadavg()[0].toFixed(1)
    const kinds = [
      { byTool: true, prefix: 't', what: 'a file tool' },
      { byTool: false, prefix: 'c', what: 'a command' },
    ]
    const rows = []
    for (const { byTool, prefix, what } of kinds) {
      const result = await measure({ store, log, changed, turns, byTool, prefix })
      const added = result.ours - result.baseline
      console.log(
        `  ${files} files, one changed per turn by ${what}, ${turns} turns: recorded ` +
          `${result.ours.toFixed(1)} ms, the change alone ${result.baseline.toFixed(2)} ms, undo ` +
          `adds ${added.toFixed(1)} ms (medians); CPU per turn, git's included, ` +
          `${result.cpu.toFixed(0)} ms (load ${load} at the start)`,
      )
      rows.push({
        name: `undo snapshots, 1 of ${files} files changed by ${what}`,
        ours: result.ours,
        baseline: result.baseline,
        baselineName: 'the change alone',
        memory: '',
        target: '≤ +100 ms',
        met: added <= 100,
      })
    }
    console.log(
      `  the first snapshot of a new store (every file hashed once): ${first.toFixed(0)} ms`,
    )
    return rows
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}
