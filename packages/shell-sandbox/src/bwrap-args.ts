// The bwrap arguments that confine one command: the whole filesystem bound read-only, fresh
// /dev and /proc, a private /tmp, then the writable roots bound read-write over that, and the
// network namespace unshared unless the network is allowed. Only real paths are bound (see
// realPaths): a symlink inside a root that points outside stays a link to a read-only place,
// so it is never a way to write out. No `--new-session`: the sandboxed shell stays in the
// process group spawnGroup made (it has no terminal to steal: stdin is /dev/null), so ending
// that group ends everything in the sandbox; `--die-with-parent` ends it if bwrap is killed
// alone. Pure but for realPaths, which asks the disk.
import { realpathSync } from 'node:fs'
import { sep } from 'node:path'

export interface SandboxPlan {
  /** Real paths the command may write (the session's roots); none: it writes nowhere. */
  writable: readonly string[]
  /** Real paths kept readable over the private /tmp (the cwd, the tool's output folder). */
  visible: readonly string[]
  /** The command may reach the network. */
  network: boolean
  /** The real working directory. */
  cwd: string
}

export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp']
  // Read-only first: a writable root inside a visible path is bound over it, never under it.
  for (const path of plan.visible) {
    if (!plan.writable.some((root) => isWithin(path, root))) args.push('--ro-bind', path, path)
  }
  for (const path of plan.writable) args.push('--bind', path, path)
  if (!plan.network) args.push('--unshare-net')
  args.push('--die-with-parent', '--chdir', plan.cwd, '--')
  return args
}

/**
 * The real paths of `paths` (symlinks resolved), without those that do not exist and those
 * inside another of them, sorted: what is bound is exactly what the roots are on disk.
 */
export function realPaths(paths: readonly string[]): string[] {
  const real: string[] = []
  for (const path of paths) {
    try {
      real.push(realpathSync(path))
    } catch {
      // Absent or unreadable: nothing to bind, so nothing there becomes writable.
    }
  }
  const unique = [...new Set(real)].sort()
  return unique.filter((path) => !unique.some((other) => other !== path && isWithin(path, other)))
}

/** `path` is `root` or below it. */
export function isWithin(path: string, root: string): boolean {
  if (path === root) return true
  return path.startsWith(root.endsWith(sep) ? root : root + sep)
}
