// SandboxShell: ctx.shell with a sandbox. A command asked to be confined runs as
// `bwrap … -- bash -c <command>` (./plan, ./bwrap-args): it reads the whole filesystem, writes
// only inside the roots it was given (not their `.git`) and the temp folders (or nowhere that
// lasts), sees only its own processes and, unless allowed, has no network; a command asked
// for no confinement runs as shell-local runs it. Both go through shell-local's spawnGroup and
// environment, so process groups, timeouts, cancel and the hidden API keys work alike. Whether
// bwrap works is checked once, by the warm-up a host runs when a session opens or else when
// first needed (./probe), not at start, so starting waits for no child process; where it does
// not, nothing is confined, `confinement` answers `undefined` and `unconfinedReason` says why,
// so the permission layer asks or refuses instead.
import type { Context } from 'cordis'
import { Shell, ShellError } from '@deepseek-ai/dsh-shell'
import type {
  ShellConfinement,
  ShellConfinementLevel,
  ShellProcess,
  ShellRunOptions,
} from '@deepseek-ai/dsh-shell'
import {
  Config as LocalConfig,
  commandEnv,
  groupAlive,
  spawnGroup,
} from '@deepseek-ai/dsh-shell-local'
import { z } from 'zod'
import { bwrapArgs } from './bwrap-args'
import { confinedExit } from './exit'
import { CommandLimiter, DEFAULT_LIMITS } from './limits'
import { REPORT_ARGS, SandboxInit } from './init'
import { planOf } from './plan'
import { probeSandbox, probeSandboxAsync, unsandboxedExplanation } from './probe'
import { configOf } from '@deepseek-ai/dsh-tools/config'

/** Where a command confined read-only writes its temp files (bwrap's fresh /dev has it). */
export const READ_ONLY_TMPDIR = '/dev/shm'

export const Config = LocalConfig.unwrap()
  .extend({
    /** The bubblewrap program. */
    bwrap: z.string().default('bwrap'),
    /** The most processes and memory a confined command may take (./limits). */
    limits: z
      .object({
        processes: z.number().int().min(1).default(DEFAULT_LIMITS.processes),
        memoryBytes: z.number().int().min(1).default(DEFAULT_LIMITS.memoryBytes),
      })
      .prefault({}),
    /** Paths kept readable and read-only, over the temp folders and the roots (spilled results). */
    visible: z.array(z.string()).default([]),
    /** Paths a confined command may neither read nor list (the agent's stored key). */
    hidden: z.array(z.string()).default([]),
  })
  .prefault({})

export type SandboxShellConfig = z.input<typeof Config>

export default class SandboxShell extends Shell {
  static Config = Config

  private readonly config: z.output<typeof Config>
  private readonly running = new Set<ShellProcess>()
  /** The cgroups or rlimits each confined command runs within. */
  readonly limiter: CommandLimiter
  private disposed = false
  /** The probe's answer, once asked. */
  private probed: { why: string | undefined } | undefined

  constructor(ctx: Context, config: SandboxShellConfig) {
    super(ctx)
    // Cordis validated `config` against Config when it loaded the service: defaults are in.
    this.config = configOf(Config, config)
    this.limiter = new CommandLimiter(this.config.limits)
    ctx.effect(() => () => this.disposeAll(), 'shell processes')
  }

  /** Why no command can be sandboxed here; `undefined` when bwrap works. Probed on first read. */
  get unavailable(): string | undefined {
    this.probed ??= { why: probeSandbox(this.config.bwrap) }
    return this.probed.why
  }

  /**
   * The check made ahead, without blocking (a command asked meanwhile makes it itself), then
   * `true` run once in the read-only sandbox (the code that lays a sandbox out runs then), or
   * unconfined where no sandbox works.
   */
  override async warmUp(cwd: string): Promise<void> {
    if (this.probed === undefined) {
      const why = await probeSandboxAsync(this.config.bwrap)
      this.probed ??= { why }
    }
    if (this.unavailable !== undefined) return super.warmUp(cwd)
    try {
      await this.run({ command: 'true', cwd, confine: { writable: [], network: false } })
    } catch {
      // The first real command meets the same failure and reports it.
    }
  }

  override confinement(request: ShellConfinement): ShellConfinementLevel | undefined {
    if (this.unavailable !== undefined) return undefined
    return request.writable.length > 0 ? 'workspace' : 'read-only'
  }

  override unconfinedReason(): string | undefined {
    return this.unavailable === undefined ? undefined : unsandboxedExplanation(this.unavailable)
  }

  start(options: ShellRunOptions): ShellProcess {
    if (this.disposed) {
      throw new ShellError('SHELL_DISPOSED', 'The shell was disposed; nothing more runs.')
    }
    const { bash, hideEnv, secrets, passEnv, killGraceMs } = this.config
    const confined = options.confine && this.confinement(options.confine)
    const command = [bash, '-c', options.command]
    const request = confined === undefined ? undefined : options.confine
    const limited =
      request === undefined
        ? { argv: command, done() {} }
        : this.limiter.wrap([
            this.config.bwrap,
            ...REPORT_ARGS,
            ...this.argsOf(request, options.cwd),
            ...command,
          ])
    const argv = limited.argv
    // Once bwrap exits, what is left of the sandbox (its init, ending) ends by itself: waited
    // for in confinedExit, not ended, and without a scan of /proc once the init is known.
    const init = new SandboxInit()
    const sandbox = request !== undefined && {
      onReport: (chunk: Buffer) => init.take(chunk),
      leftBehind: (pgid: number) => init.pid === undefined && groupAlive(pgid),
    }
    // A read-only command's scratch space: the sandbox's own /dev/shm, gone with it.
    const scratch: Record<string, string> =
      confined === 'read-only' ? { TMPDIR: READ_ONLY_TMPDIR } : {}
    const env = commandEnv(process.env, {
      hide: hideEnv,
      secrets,
      pass: passEnv,
      add: { ...scratch, ...options.env },
    })
    const started = spawnGroup(argv, {
      cwd: options.cwd,
      env,
      killGraceMs,
      ...(options.signal && { signal: options.signal }),
      ...(options.timeout !== undefined && { timeout: options.timeout }),
      ...(options.onOutput && { onOutput: options.onOutput }),
      ...sandbox,
    })
    this.running.add(started)
    void started.exited.then(() => this.running.delete(started))
    if (confined === undefined) return started
    return {
      pid: started.pid,
      kill: () => started.kill(),
      exited: started.exited
        .then((exit) => confinedExit(started.pid, exit, confined, init.pid))
        .finally(limited.done),
    }
  }

  /** The bwrap arguments for `request`, run in `cwd`: real paths only. */
  argsOf(request: ShellConfinement, cwd: string): string[] {
    return bwrapArgs(
      planOf(request, cwd, { visible: this.config.visible, hidden: this.config.hidden }),
    )
  }

  private async disposeAll(): Promise<void> {
    this.disposed = true
    const running = [...this.running]
    for (const process of running) process.kill()
    await Promise.all(running.map((process) => process.exited))
    this.limiter.dispose()
  }
}

export { bwrapArgs } from './bwrap-args'
export { planOf, realPaths } from './plan'
export { CONTROL_FOLDERS } from './control'
export { CommandLimiter, DEFAULT_LIMITS } from './limits'
export type { CommandLimits } from './limits'
export type { SandboxPlan } from './bwrap-args'
export { probeSandbox, probeSandboxAsync, unsandboxedExplanation } from './probe'
