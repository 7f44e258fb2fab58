// How a confined command's end is reported. Two things differ from a bare `bash -c`, and both
// are made good here so a confined command ends as an unconfined one does:
// - bwrap stays the parent of the sandboxed shell and exits with 128+N when a signal N ended
//   it: that status is reported as the signal (as bash itself reports a signalled child).
// - The sandbox's init tears its namespaces down after bwrap exited and the pipes closed, so
//   the exit is held back until the init has ended (./init), for at most a second. When bwrap
//   never named its init (it failed before starting one), until no live process of the group
//   is left (checked in /proc; the sandbox is Linux-only).
import { constants } from 'node:os'
import type { ShellConfinementLevel, ShellExit } from '@deepseek-ai/dsh-shell'
import { groupAlive } from '@deepseek-ai/dsh-shell-local'
import { initEnded } from './init'

/** The longest wait for a group's last processes once its output ended. */
const GROUP_GONE_MS = 1000
/** Between two looks at the init (one small read) and at the group (a scan of /proc). */
const INIT_POLL_MS = 1
const GROUP_POLL_MS = 10

const SIGNAL_NAMES = new Map(
  Object.entries(constants.signals).map(([name, number]) => [number, name] as const),
)

export async function confinedExit(
  pgid: number,
  exit: ShellExit,
  confined: ShellConfinementLevel,
  init: number | undefined,
): Promise<ShellExit> {
  if (init === undefined) await until(() => !groupAlive(pgid), GROUP_POLL_MS)
  else await until(() => initEnded(init, pgid), INIT_POLL_MS)
  const signal = exit.exitCode !== null ? SIGNAL_NAMES.get(exit.exitCode - 128) : undefined
  if (signal === undefined) return { ...exit, confined }
  return { ...exit, exitCode: null, signal, confined }
}

async function until(done: () => boolean, pollMs: number): Promise<void> {
  const end = Date.now() + GROUP_GONE_MS
  while (!done() && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}
