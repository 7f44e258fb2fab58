// What the operating system says: the live members of a process group (from /proc, not our
// own bookkeeping), waiting until a condition holds, and a command run to its end through a
// shell with its output collected.
import { readFileSync, readdirSync } from 'node:fs'
import type { Shell, ShellExit, ShellRunOptions } from '@deepseek-ai/dsh-shell'

/** The pids whose process group is `pgid`, alive now (zombies excluded). */
export function groupMembers(pgid: number): number[] {
  const members: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue // the process ended while we looked
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(entry))
  }
  return members
}

export async function waitUntil(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return check()
}

export async function runCollect(
  shell: Shell,
  options: ShellRunOptions,
): Promise<ShellExit & { output: string }> {
  let output = ''
  const exit = await shell.run({ ...options, onOutput: (text) => (output += text) })
  return { ...exit, output }
}
