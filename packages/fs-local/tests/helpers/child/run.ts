// Runs one operation of the bundled driver in a child process and returns its JSON outcome.
// When the tests run as root (which bypasses permission bits), the child runs as the
// unprivileged `nobody` (uid/gid 65534) so permission checks are real.
import { spawnSync } from 'node:child_process'
import type { ChildOp } from './driver'

export type ChildOutcome =
  { ok: true; result: unknown } | { ok: false; name?: string; code?: string; message?: string }

export const UNPRIVILEGED = 65534

export function runsAsRoot(): boolean {
  return process.getuid?.() === 0
}

export function runChildOp(script: string, op: ChildOp): ChildOutcome {
  const asNobody = runsAsRoot() ? { uid: UNPRIVILEGED, gid: UNPRIVILEGED } : {}
  const child = spawnSync(process.execPath, [script, 'op', JSON.stringify(op)], {
    encoding: 'utf8',
    timeout: 20_000,
    ...asNobody,
  })
  if (child.status !== 0) {
    throw new Error(`driver exited with ${child.status ?? child.signal}: ${child.stderr}`)
  }
  return JSON.parse(child.stdout) as ChildOutcome
}
