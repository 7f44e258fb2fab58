// The bwrap arguments that confine one command, from a plan of real paths (./plan asks the
// disk for it): the whole filesystem bound read-only, a fresh /dev (with a private /dev/shm),
// a process-id namespace of its own with its own /proc (its /proc/sys read-only), its own
// hostname and IPC namespaces, no capability (root included), the temp folders bound writable (for a
// command that may write the workspace) and the read-only paths kept over them, the writable roots, the repository control folders
// inside those roots read-only again, the unix sockets outside the roots covered, the hidden
// paths (the agent's stored key) covered empty, and the network namespace unshared unless the
// network is allowed.
// Binds are laid shallowest first, so a deeper one wins: a root inside a read-only path stays
// writable, a `.git` inside a root stays read-only. No `--new-session`: the sandboxed shell
// stays in the process group spawnGroup made (stdin is /dev/null, no terminal to steal), so
// ending that group ends the sandbox; `--unshare-pid` makes bwrap's own init the namespace's
// first process, so every process in it (a `setsid` one too) ends when the command does, and
// `--die-with-parent` ends it if bwrap is killed alone. Pure.
import { sep } from 'node:path'

export interface SandboxPlan {
  /** Real paths the command may write (the session's roots); none: it writes nowhere. */
  writable: readonly string[]
  /**
   * The real temp folders (`/tmp`, `$TMPDIR`) bound writable, so what a command leaves there is
   * there for the next one and for the file tools; none: they stay read-only.
   */
  temp: readonly string[]
  /** Real paths kept read-only over the temp folders (home, the cwd, read-only roots, spill). */
  readOnly: readonly string[]
  /** What runs later outside (control folders, what git reaches, editor files), kept read-only. */
  control: readonly string[]
  /** Unix socket files to cover, so nothing connects to them. */
  sockets: readonly string[]
  /**
   * Real paths a command may neither read nor list (the agent's stored key): a folder becomes
   * an empty one, a file an empty file.
   */
  hidden?: readonly { path: string; folder: boolean }[]
  /** The command may reach the network. */
  network: boolean
  /** The real working directory. */
  cwd: string
}

/**
 * What every sandbox starts with, before any bind: `/` read-only, a fresh `/dev`, its own pid
 * namespace and `/proc` with `/proc/sys` read-only (root may write most of it by file mode
 * alone), its own hostname and System V IPC, its own cgroup view where the kernel has one, and
 * no capability at all: without `--cap-drop ALL` a command run by root keeps nearly every one
 * and undoes the read-only binds (`mount -o remount,bind,rw /`).
 */
// prettier-ignore
export const ISOLATION_ARGS: readonly string[] = [
  '--ro-bind', '/', '/',
  '--dev', '/dev',
  '--unshare-pid', '--proc', '/proc',
  '--ro-bind', '/proc/sys', '/proc/sys',
  '--unshare-uts', '--unshare-ipc', '--unshare-cgroup-try',
  '--cap-drop', 'ALL',
]

type Bind = { path: string; flag: '--bind' | '--ro-bind' }

export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = [...ISOLATION_ARGS]
  const binds: Bind[] = []
  for (const path of plan.temp) binds.push({ path, flag: '--bind' })
  // A read-only path inside a writable root adds nothing: the root is the person's choice.
  for (const path of plan.readOnly) {
    if (!plan.writable.some((root) => isWithin(path, root))) binds.push({ path, flag: '--ro-bind' })
  }
  for (const path of plan.writable) binds.push({ path, flag: '--bind' })
  // Stable: at the same depth the later (a root) wins over the earlier (a temp folder).
  binds.sort((a, b) => depthOf(a.path) - depthOf(b.path))
  for (const { path, flag } of binds) args.push(flag, path, path)
  for (const path of plan.control) args.push('--ro-bind', path, path)
  for (const path of plan.sockets) args.push('--ro-bind', '/dev/null', path)
  for (const { path, folder } of plan.hidden ?? []) {
    if (folder) args.push('--tmpfs', path, '--remount-ro', path)
    else args.push('--ro-bind', '/dev/null', path)
  }
  if (!plan.network) args.push('--unshare-net')
  args.push('--die-with-parent', '--chdir', plan.cwd, '--')
  return args
}

/** `path` is `root` or below it. */
export function isWithin(path: string, root: string): boolean {
  if (path === root || root === sep) return true
  return path.startsWith(root.endsWith(sep) ? root : root + sep)
}

function depthOf(path: string): number {
  return path.split(sep).filter(Boolean).length
}
