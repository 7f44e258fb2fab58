// Whether a process group still has a live member. `kill(-pgid, 0)` alone also counts zombies:
// a process that ended but that no parent has reaped yet. A sandbox's init process is one (its
// parent, bwrap, exits without waiting for it, and the system's reaper takes it later, up to a
// second on a busy machine), and a group whose only members are zombies has nothing left to end.
// So when the kernel says the group is not empty, /proc is read (on Linux) for a member that is
// not a zombie; where /proc cannot be read, the kernel's answer stands.
import { groupMembers } from '@deepseek-ai/dsh-shell'

/** Group `pgid` has a member that is alive (not a zombie). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
  } catch {
    return false // ESRCH: the group is empty, the common case, without reading /proc
  }
  try {
    return groupMembers(pgid, 1).length > 0
  } catch {
    return true // no /proc: trust the kernel's answer
  }
}
