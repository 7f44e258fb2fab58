// What the operating system says about a process group, read from /proc (Linux): its live
// members, zombies left out (a process that ended and that no parent has reaped yet is not
// running anything). The contract checks providers with it, never trusting their own
// bookkeeping, and providers use it to tell a group that is gone from one that is not.
import { readFileSync, readdirSync } from 'node:fs'

/** The live (non-zombie) pids whose process group is `pgid`, at most `limit` of them. */
export function groupMembers(pgid: number, limit = Infinity): number[] {
  const members: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (members.length >= limit) break
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue // the process ended while we looked
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(entry))
  }
  return members
}
