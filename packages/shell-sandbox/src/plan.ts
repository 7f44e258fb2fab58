// What one confined command's sandbox is made of, asked of the disk just before it starts:
// real paths only (a symlink in a root that points out stays a link into the read-only
// filesystem), the temp folders and what stays read-only in them (the home folder, the cwd,
// the spilled output), the repository control folders inside the writable roots (./control),
// and the unix sockets to cover (./sockets). The pure layout is ./bwrap-args.
import { realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import type { ShellConfinement } from '@deepseek-ai/dsh-shell'
import type { SandboxPlan } from './bwrap-args'
import { isWithin } from './bwrap-args'
import { controlFolders } from './control'
import { socketsToCover } from './sockets'

export interface PlanOptions {
  /** Paths kept readable and read-only, over the temp folders and the roots (spilled results). */
  visible: readonly string[]
  /** The person's home folder; default: the agent's. */
  home?: string
  /** The temp folders; default: `/tmp` and `$TMPDIR`. */
  temp?: readonly string[]
  /** Paths a command may neither read nor list (the agent's stored key); absent ones are skipped. */
  hidden?: readonly string[]
}

export function planOf(request: ShellConfinement, cwd: string, options: PlanOptions): SandboxPlan {
  const realCwd = realPathOf(cwd)
  const writable = realPaths(request.writable)
  // A command that may write nowhere sees the temp folders as they are, read-only (what an
  // earlier command left there included), and gets its scratch space elsewhere (./index).
  const temp = writable.length > 0 ? realPaths(options.temp ?? tempFolders()) : []
  const readOnly = realPaths([realCwd, options.home ?? homedir(), ...options.visible]).filter(
    (path) => temp.some((folder) => isWithin(path, folder)),
  )
  // The visible paths (the spilled output) stay read-only inside a writable root too.
  const kept = realPaths(options.visible).filter((path) =>
    writable.some((root) => isWithin(path, root)),
  )
  return {
    writable,
    temp,
    readOnly,
    control: [...controlFolders(writable, realCwd, temp), ...kept],
    sockets: socketsToCover((path) => !writable.some((root) => isWithin(path, root))),
    hidden: realPaths(options.hidden ?? []).map((path) => ({
      path,
      folder: statSync(path).isDirectory(),
    })),
    network: request.network,
    cwd: realCwd,
  }
}

/** `/tmp` and `$TMPDIR` when it is set to another folder. */
function tempFolders(): string[] {
  const tmpdir = process.env.TMPDIR
  return tmpdir === undefined || tmpdir === '' ? ['/tmp'] : ['/tmp', tmpdir]
}

/**
 * The real paths of `paths` (symlinks resolved), without those that do not exist and those
 * inside another of them, sorted: what is bound is exactly what the paths are on disk.
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

/** The real path of `path`, or `path` itself when it does not resolve (spawnGroup says why). */
export function realPathOf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
