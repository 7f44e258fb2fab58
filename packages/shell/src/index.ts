// The ctx.shell seam: the abstract Shell service (start a command in its own process group,
// run one to its end, background jobs), its types and ShellError. No process here: providers
// (shell-local on the host; a sandboxing one wrapping the same spawn) implement `start` and
// say which confinement they honour. Disposing a provider ends every job it runs.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import { ShellJobs } from './jobs'
import type {
  ShellConfinement,
  ShellConfinementLevel,
  ShellExit,
  ShellProcess,
  ShellRunOptions,
} from './types'

declare module 'cordis' {
  interface Context {
    shell: Shell
  }
}

export abstract class Shell extends Service {
  /** The background jobs started through this provider. */
  readonly jobs: ShellJobs

  constructor(ctx: Context) {
    super(ctx, 'shell')
    this.jobs = new ShellJobs((options) => this.start(options))
    ctx.effect(() => () => this.jobs.killAll(), 'shell jobs')
  }

  /**
   * Starts the command; throws SHELL_BAD_CWD, SHELL_SPAWN_FAILED or SHELL_DISPOSED. Once
   * started, every way it ends (exit, signal, timeout, abort) settles `exited`.
   */
  abstract start(options: ShellRunOptions): ShellProcess

  /** Runs the command to its end. */
  run(options: ShellRunOptions): Promise<ShellExit> {
    return this.start(options).exited
  }

  /**
   * The confinement this provider gives a command run with `request`, or `undefined` when it
   * runs commands unconfined. A permission layer judges a call by this before it runs.
   */
  confinement(_request: ShellConfinement): ShellConfinementLevel | undefined {
    return undefined
  }

  /**
   * Readies what the provider's first command would otherwise wait for (the code that starts a
   * process group compiles as it first runs; a provider's own checks), by running `true` once
   * in `cwd`. For a host to call when a session opens, off the path of anything a person waits
   * on. Never rejects: a command that cannot run fails again, and says why, when it is asked.
   */
  async warmUp(cwd: string): Promise<void> {
    try {
      await this.run({ command: 'true', cwd })
    } catch {
      // The first real command meets the same failure and reports it.
    }
  }

  /**
   * Why this provider cannot honour a confinement it was made for (no working sandbox here),
   * and how to get one, for a person to read; `undefined` when it can, or never confines.
   */
  unconfinedReason(): string | undefined {
    return undefined
  }
}

export { ShellJobs, SHELL_JOB_BUFFER_CHARS } from './jobs'
export { groupMembers } from './group'
export { SHELL_ERROR_CODES, ShellError, isShellError } from './errors'
export type { ShellErrorCode } from './errors'
export type * from './types'
