// Benchmark the bridged call: 1,000 small reads (quick: 200) in one session of the `dsh-acp`
// bin over real stdio, driven from another process by a minimal ndjson client that validates
// nothing, against the same reads through ctx.tools.execute in process (the app's file stack).
// Target: ≤ 1.5×. Told apart beside it: the same session with the SDK's client (which validates
// every message it gets), and through the in-memory harness (SDK client and bridge in one
// process). Also the permission layer's share (the session in `ask` against `full-access`,
// ≤ 1.05×), and the bin's own work per call by package from a CPU profile (the bridge:
// presenter, converters, encoding, stream writes; target < 0.1 ms).
// Every side reads WARMUP_CALLS times before the timed reads (see lib/small-files.mjs).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { alternate, runChild } from './lib/child.mjs'
import { cpuByOwner } from './lib/profile.mjs'
import { median, ms, ratio } from './lib/stats.mjs'

const FILES = 10
/** The packages whose CPU is the bridge's: the ACP bridge, the bin's stdio, the SDK. */
const BRIDGE = ['acp', 'acp-agent', '@agentclientprotocol/sdk']

export async function run({ runs, quick }) {
  const calls = quick ? 200 : 1000
  const bin = (client, mode = 'ask') => runChild('stdio.mjs', { client, calls, files: FILES, mode })
  const inProcess = (mode) => runChild('bridge.mjs', { mode, calls, files: FILES })
  const main = alternate(
    runs,
    () => bin('ndjson'),
    () => inProcess('direct'),
  )
  const sdk = alternate(
    runs,
    () => bin('sdk'),
    () => inProcess('acp'),
  )
  const layer = alternate(
    runs,
    () => bin('ndjson', 'ask'),
    () => bin('ndjson', 'full-access'),
  )
  const msOf = (list) => median(list.map((r) => r.ms))
  const ours = msOf(main.ours)
  const baseline = msOf(main.baseline)
  const withSdk = msOf(sdk.ours)
  const harness = msOf(sdk.baseline)
  const perCall = (value) => ms(value / calls)
  console.log(
    `  ${calls} reads in one session: bin over stdio, minimal client ${ms(ours)} ` +
      `(${perCall(ours)}/call), ${ratio(ours, baseline)} of in process ${ms(baseline)} ` +
      `(${perCall(baseline)}/call)`,
  )
  console.log(
    `  the same with the SDK's client ${ms(withSdk)} (${ratio(withSdk, baseline)}); ` +
      `in-memory harness (SDK client in process) ${ms(harness)} (${ratio(harness, baseline)})`,
  )
  const asked = msOf(layer.ours)
  const open = msOf(layer.baseline)
  console.log(
    `  permission layer: ask ${ms(asked)}, full-access ${ms(open)}, ${ratio(asked, open)}`,
  )
  const work = profiledWork(calls)
  const bridge = BRIDGE.reduce((sum, owner) => sum + (work.get(owner) ?? 0), 0) / 1000
  const rest = [...work].filter(([, us]) => us >= 5).sort((a, b) => b[1] - a[1])
  console.log(`  the bin's CPU per call by package (a CPU profile of the timed reads):`)
  console.log(`    ${rest.map(([owner, us]) => `${owner} ${us.toFixed(0)} µs`).join(', ')}`)
  return [
    {
      name: 'bridged call, bin over stdio',
      ours,
      baseline,
      baselineName: 'ctx.tools.execute in process',
      memory: '',
      target: '≤ 1.5×',
      met: ours <= 1.5 * baseline,
    },
    {
      name: 'bridged call, SDK client',
      ours: withSdk,
      baseline,
      baselineName: 'ctx.tools.execute in process',
      memory: '',
      target: '',
    },
    {
      name: 'bridged call, in-memory harness',
      ours: harness,
      baseline,
      baselineName: 'ctx.tools.execute in process',
      memory: '',
      target: '',
    },
    {
      name: 'bridged call, permission layer',
      ours: asked,
      baseline: open,
      baselineName: 'same session, full-access',
      memory: '',
      target: '≤ 1.05×',
      met: asked <= 1.05 * open,
    },
    {
      name: 'bridge work per call (CPU profile)',
      ours: bridge,
      baseline: NaN,
      baselineName: BRIDGE.join(' + '),
      memory: '',
      target: '< 100 µs',
      met: bridge < 0.1,
    },
  ]
}

/** µs of CPU per call by package, from a CPU profile of the bin over the timed reads. */
function profiledWork(calls) {
  const profile = mkdtempSync(join(tmpdir(), 'dsh-bench-profile-'))
  try {
    const { window } = runChild('stdio.mjs', { client: 'ndjson', calls, files: FILES, profile })
    const totals = cpuByOwner(profile, window)
    return new Map([...totals].map(([owner, us]) => [owner, us / calls]))
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}
