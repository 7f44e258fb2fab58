// What the operating system says about a process group (from /proc), and polling for a state.
import { readFileSync, readdirSync } from 'node:fs'

/** The live (non-zombie) pids whose process group is `pgid`. */
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

/** Polls `probe` until it gives a value (or 5 s pass: then `undefined`). */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  ms = 5000,
): Promise<T | undefined> {
  const end = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined || Date.now() > end) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
