// Reading a V8 CPU profile (`node --cpu-prof`): CPU time by who did it. Each sample goes to the
// nearest frame of its stack that belongs to a package (ours under packages/, or a dependency
// under node_modules), so Node's own work (a stream write, JSON.stringify) counts for the
// package that asked for it. Idle time is left out; the collector and V8's own work
// (`(garbage collector)`, `(program)`) are counted apart, as nobody's.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The package a script URL belongs to: `acp` for packages/acp/dist/…, `zod` for a dependency. */
export function ownerOf(url) {
  const ours = url.match(/packages\/([^/]+)\/dist\//)
  if (ours) return ours[1]
  const dependency = url.match(
    /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/,
  )
  return dependency?.[1]
}

/**
 * Microseconds of CPU by owner in the one profile `dir` holds, counting only the samples taken
 * within `window` ({ start, end } in µs of the monotonic clock, as the profile's times are).
 */
export function cpuByOwner(dir, window) {
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))
  if (file === undefined) throw new Error(`no CPU profile in ${dir}`)
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'))
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parents = new Map()
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node.id)
  }
  const owners = new Map()
  const ownerOfNode = (id) => {
    if (owners.has(id)) return owners.get(id)
    const parent = parents.get(id)
    const owner =
      ownerOf(nodes.get(id).callFrame.url) ??
      (parent === undefined ? undefined : ownerOfNode(parent))
    owners.set(id, owner)
    return owner
  }
  const totals = new Map()
  let time = profile.startTime
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0
    time += delta
    if (time < window.start || time > window.end) return
    const name = nodes.get(id).callFrame.functionName
    if (name === '(idle)') return
    const owner = ownerOfNode(id) ?? (name.startsWith('(') ? name : 'node')
    totals.set(owner, (totals.get(owner) ?? 0) + delta)
  })
  return totals
}
