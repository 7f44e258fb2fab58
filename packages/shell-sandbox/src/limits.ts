// How many processes and how much memory a confined command may take, so a fork bomb or a
// memory bomb stops at a bound instead of at what the machine allows. Where the agent may make
// cgroups (root, or a delegated tree), each command gets its own: `pids.max` and the memory
// limit (v1: the `pids` and `memory` hierarchies; v2: the unified tree, from its root), joined
// by a tiny `sh` that writes its pid into them and then execs bwrap, so every process of the
// sandbox is counted from the first. Elsewhere, rlimits through `prlimit`: the address space
// of each process (RLIMIT_AS) and, when the agent is not root (the kernel exempts root), the
// user's process count (RLIMIT_NPROC: every process of that user counts). A command's cgroups
// are removed once it is over, the agent's folder of them when the shell is disposed.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'

export interface CommandLimits {
  /** The most processes (and threads) a command may have at once. */
  processes: number
  /** The most memory: of the whole command with cgroups, of each process with rlimits. */
  memoryBytes: number
}

/** What the app runs with: 1,024 processes, 8 GiB. */
export const DEFAULT_LIMITS: CommandLimits = { processes: 1024, memoryBytes: 8 * 2 ** 30 }

/** One file of limits to write in a command's cgroup folder. */
type LimitFile = { name: string; value: (limits: CommandLimits) => string }

interface Hierarchy {
  /** The agent's folder of cgroups in this hierarchy. */
  parent: string
  files: LimitFile[]
}

const PIDS: LimitFile = { name: 'pids.max', value: (l) => String(l.processes) }

/** The shell that joins the cgroups named before `--`, then runs what follows. */
const JOIN =
  'while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 126; shift; done; shift; exec "$@"'

export class CommandLimiter {
  private hierarchies: Hierarchy[] | undefined
  private made = 0
  /** Commands' cgroups not yet removed (a process was still ending when tried). */
  private readonly left = new Set<string>()

  constructor(
    private readonly limits: CommandLimits,
    private readonly root = '/sys/fs/cgroup',
  ) {}

  /** How commands are limited here, for the README's words and the tests. */
  get kind(): 'cgroup' | 'rlimit' | 'none' {
    if (this.cgroups().length > 0) return 'cgroup'
    return prlimitPath() === undefined ? 'none' : 'rlimit'
  }

  /** `argv` (bwrap's) run within the limits, and what to do once the command is over. */
  wrap(argv: readonly string[]): { argv: string[]; done: () => void } {
    const hierarchies = this.cgroups()
    if (hierarchies.length === 0) return { argv: [...rlimitArgs(this.limits), ...argv], done() {} }
    const name = `c${++this.made}`
    const folders: string[] = []
    try {
      for (const { parent, files } of hierarchies) {
        const folder = join(parent, name)
        mkdirSync(folder)
        folders.push(folder)
        for (const file of files) writeFileSync(join(folder, file.name), file.value(this.limits))
      }
    } catch {
      removeAll(folders)
      return { argv: [...rlimitArgs(this.limits), ...argv], done() {} }
    }
    return {
      argv: ['/bin/sh', '-c', JOIN, 'dsh-limits', ...folders, '--', ...argv],
      done: () => {
        for (const folder of folders) if (!removeAll([folder])) this.left.add(folder)
      },
    }
  }

  /** Removes the agent's folders of cgroups (empty once its commands are over). */
  dispose(): void {
    removeAll([...this.left])
    this.left.clear()
    removeAll((this.hierarchies ?? []).map((hierarchy) => hierarchy.parent))
    this.hierarchies = []
  }

  /** The hierarchies the agent may make cgroups in, found once. */
  private cgroups(): Hierarchy[] {
    this.hierarchies ??= findHierarchies(this.root, `dsh-${process.pid}`)
    return this.hierarchies
  }
}

function findHierarchies(root: string, name: string): Hierarchy[] {
  const unified = join(root, 'cgroup.controllers')
  if (existsSync(unified)) {
    const controllers = readText(unified).split(/\s+/)
    if (!controllers.includes('pids') || !controllers.includes('memory')) return []
    const parent = join(root, name)
    const made = tryMake(parent, () => {
      writeFileSync(join(root, 'cgroup.subtree_control'), '+pids +memory')
      writeFileSync(join(parent, 'cgroup.subtree_control'), '+pids +memory')
    })
    const memory: LimitFile = { name: 'memory.max', value: (l) => String(l.memoryBytes) }
    return made ? [{ parent, files: [PIDS, memory] }] : []
  }
  const found: Hierarchy[] = []
  const memory: LimitFile = { name: 'memory.limit_in_bytes', value: (l) => String(l.memoryBytes) }
  for (const [controller, file] of [
    ['pids', PIDS],
    ['memory', memory],
  ] as const) {
    const parent = join(root, controller, name)
    if (existsSync(join(root, controller, 'cgroup.procs')) && tryMake(parent)) {
      found.push({ parent, files: [file] })
    }
  }
  // Both or neither: half a bound is left to the rlimits.
  if (found.length === 2) return found
  removeAll(found.map((hierarchy) => hierarchy.parent))
  return []
}

/** Makes `folder` (and runs `then`); false when the OS refuses (not root, not delegated). */
function tryMake(folder: string, then?: () => void): boolean {
  try {
    mkdirSync(folder, { recursive: true })
    then?.()
    return true
  } catch {
    removeAll([folder])
    return false
  }
}

/** Removes each of `folders`; false when one could not be (a process still ending in it). */
function removeAll(folders: readonly string[]): boolean {
  let all = true
  for (const folder of folders) {
    try {
      rmdirSync(folder)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') all = false
    }
  }
  return all
}

/** `prlimit --as=… [--nproc=…] --` when prlimit is found, else nothing. */
function rlimitArgs(limits: CommandLimits): string[] {
  const prlimit = prlimitPath()
  if (prlimit === undefined) return []
  const nproc = process.getuid?.() === 0 ? [] : [`--nproc=${limits.processes}`]
  return [prlimit, `--as=${limits.memoryBytes}`, ...nproc, '--']
}

let prlimitFound: { path: string | undefined } | undefined

function prlimitPath(): string | undefined {
  prlimitFound ??= {
    path: (process.env.PATH ?? '/usr/bin:/bin')
      .split(delimiter)
      .map((dir) => join(dir, 'prlimit'))
      .find((path) => path.startsWith('/') && existsSync(path)),
  }
  return prlimitFound.path
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}
