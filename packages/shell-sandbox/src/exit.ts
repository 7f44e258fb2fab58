// How a confined command's end is reported. Two things differ from a bare `bash -c`, and both
// are made good here so a confined command ends as an unconfined one does:
// - bwrap stays the parent of the sandboxed shell and exits with 128+N when a signal N ended
//   it: that status is reported as the signal (as bash itself reports a signalled child).
// - The last process of a sandbox tears its namespaces down after it closed its pipes, so it
//   can outlive the moment the output ends: the exit is held back until no live process of the
//   group is left (checked in /proc; the sandbox is Linux-only), for at most a second.
import { constants } from 'node:os'
import type { ShellConfinementLevel, ShellExit } from '@deepseek-ai/dsh-shell'
import { groupAlive } from '@deepseek-ai/dsh-shell-local'

/** The longest wait for a group's last processes once its output ended. */
const GROUP_GONE_MS = 1000
const POLL_MS = 10

const SIGNAL_NAMES = new Map(
  Object.entries(constants.signals).map(([name, number]) => [number, name] as const),
)

export async function confinedExit(
  pid: number,
  exit: ShellExit,
  confined: ShellConfinementLevel,
): Promise<ShellExit> {
  await groupGone(pid)
  const signal = exit.exitCode !== null ? SIGNAL_NAMES.get(exit.exitCode - 128) : undefined
  if (signal === undefined) return { ...exit, confined }
  return { ...exit, exitCode: null, signal, confined }
}

async function groupGone(pgid: number): Promise<void> {
  const end = Date.now() + GROUP_GONE_MS
  while (groupAlive(pgid) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}
