// The processes an MCP server started, wherever they went: every live descendant of the
// server's pid, found through the parent links in /proc, so a child that left the server's
// process group (`setsid`, a daemon's new session) is ended with it too. Each is remembered
// with its start time, so a later signal (SIGKILL after SIGTERM, once the server is gone and
// its children were handed to init) reaches the same process and never a new one that reused
// its pid. The limit: a process whose parent ended before it was seen here (a double fork
// finished before the close) has no link left to the server. Linux only; elsewhere, none.
import { readFileSync, readdirSync } from 'node:fs'

/** A process, named by its pid and its start time (clock ticks since boot). */
export interface ProcessRef {
  pid: number
  start: string
}

interface Stat {
  ppid: number
  start: string
}

/** The live descendants of `root` (not `root` itself). */
export function descendantsOf(root: number): ProcessRef[] {
  const children = new Map<number, number[]>()
  const starts = new Map<number, string>()
  for (const entry of listProc()) {
    const pid = Number(entry)
    const stat = statOf(pid)
    if (stat === undefined) continue
    starts.set(pid, stat.start)
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid])
  }
  const found: ProcessRef[] = []
  const queue = [...(children.get(root) ?? [])]
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    found.push({ pid, start: starts.get(pid) ?? '' })
    queue.push(...(children.get(pid) ?? []))
  }
  return found
}

/** Sends `signal` to each of `processes` that is still the process it was. */
export function signalProcesses(processes: Iterable<ProcessRef>, signal: NodeJS.Signals): void {
  for (const { pid, start } of processes) {
    if (statOf(pid)?.start !== start) continue // ended, or its pid is another's now
    try {
      process.kill(pid, signal)
    } catch {
      // ended meanwhile
    }
  }
}

function listProc(): string[] {
  try {
    return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))
  } catch {
    return [] // no /proc: not Linux
  }
}

function statOf(pid: number): Stat | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // pid (comm) state ppid … starttime is field 22; comm may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined
  return { ppid: Number(fields[1]), start: fields[19] ?? '' }
}
