// What the operating system says about processes: the members of a process group (from
// /proc, so no test trusts our own bookkeeping), and waiting until a condition holds.
import { readFileSync } from 'node:fs'
import { mkdtemp, realpath } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The live members of a process group, from /proc (the seam's contract reads it so too). */
export { groupMembers } from '@deepseek-ai/dsh-shell/testing'

/** True while the process `pid` exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

export async function waitUntil(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return check()
}

export async function tempDir(): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), 'dsh-shell-local-')))
}
