// The sandbox's init, and when a confined command is over. With its own pid namespace, bwrap
// starts an init as the namespace's first process, which starts the command; the bwrap the
// agent started exits as soon as the init reports the command's exit, while the init is still
// tearing the namespaces down (a few ms), after which it is a zombie until the system reaps
// it. The kernel ends every process of a pid namespace when its init exits, and the init
// turns zombie only once they are all gone: so the command is over when its init is a zombie
// or gone, which one read of /proc/<pid>/stat tells (a whole process group would need a scan
// of every process in /proc). bwrap names the init on its report fd (`--info-fd`):
// `{ "child-pid": N, … }`.
import { readFileSync } from 'node:fs'

/** The bwrap arguments that make it report on the fd spawnGroup's `onReport` reads (3). */
export const REPORT_ARGS = ['--info-fd', '3']

/** The init's pid, read from bwrap's report as it comes. */
export class SandboxInit {
  private text = ''
  /** The init's pid (in the agent's namespace); `undefined` until reported. */
  pid: number | undefined

  take(chunk: Buffer): void {
    if (this.pid !== undefined || this.text.length > 4096) return
    this.text += chunk.toString('utf8')
    const named = /"child-pid"\s*:\s*(\d+)/.exec(this.text)
    if (named !== null) this.pid = Number(named[1])
  }
}

/**
 * The init `pid` of group `pgid` has ended: a zombie, gone, or the pid now another process's
 * (reaped and reused). Read from /proc; where it cannot be read, gone.
 */
export function initEnded(pid: number, pgid: number): boolean {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return true // reaped
  }
  // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return fields[0] === 'Z' || fields[0] === 'X' || Number(fields[2]) !== pgid
}
